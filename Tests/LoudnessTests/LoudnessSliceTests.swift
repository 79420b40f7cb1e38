import LoudnessReference
import NagiTestSupport
import Testing

@testable import Loudness

/// Stereo slices weighted as two segments (`LoudnessSlice`): what the meter makes of them agrees with the whole
/// stream fed in order and with libebur128, each step's sum with one run from rest over the slice to far below
/// a Double's rounding, and the bits depend on nothing but the slice (not on an earlier slice, nor on AVX).
@Suite struct LoudnessSliceTests {
    /// Slice lengths: a sliced write's, long and short ones that split, the shortest that splits and one frame
    /// fewer, tiny ones.
    static func lengths(_ weighting: KWeighting) -> [Int] {
        let shortestSplit = 2 * weighting.settleFrames + 4
        return [1 << 17, 60_000, shortestSplit, 3, shortestSplit - 1, 100_003, 1, 45_000]
    }

    /// Calls `body` with each slice of the interleaved stereo `all`, cut at `lengths` in turn (over again when
    /// they run out), and the stream frame it starts at.
    static func forEachSlice(of all: UnsafeBufferPointer<Float>, lengths: [Int], _ body: (UnsafeBufferPointer<Float>, Int64) -> Void) {
        var done = 0
        var index = 0
        while done < all.count / 2 {
            let frames = min(lengths[index % lengths.count], all.count / 2 - done)
            body(UnsafeBufferPointer(rebasing: all[(2 * done)..<(2 * (done + frames))]), Int64(done))
            done += frames
            index += 1
        }
    }

    @Test(arguments: [44100, 48000, 96000, 192000])
    func splitSlicesMeterAsTheWholeStreamAndLibebur128(sampleRate: Int) throws {
        let samples = GatedLoudnessMeterTests.signal(sampleRate: sampleRate, channels: 2)
        let whole = GatedLoudnessMeter(channelCount: 2, sampleRate: sampleRate)
        samples.withUnsafeBufferPointer { whole.add($0) }
        let reference = try LoudnessMeter(channelCount: 2, sampleRate: sampleRate, measuresTruePeak: false)
        try reference.add(samples)
        let sliced = GatedLoudnessMeter(channelCount: 2, sampleRate: sampleRate)
        let slice = sliced.makeSlice()
        let lengths = Self.lengths(slice.weighting)
        var splits = 0
        samples.withUnsafeBufferPointer { all in
            Self.forEachSlice(of: all, lengths: lengths) { part, firstFrame in
                slice.measure(part, firstFrame: firstFrame)
                splits += slice.isSplit ? 1 : 0
                sliced.add(slice, samples: part)
            }
        }
        #expect(splits >= 4)
        #expect(abs(sliced.integratedLoudness - whole.integratedLoudness) < 1e-6, "sliced \(sliced.integratedLoudness), whole \(whole.integratedLoudness) LUFS")
        let expected = try reference.integratedLoudness()
        #expect(abs(sliced.integratedLoudness - expected) < 0.01, "sliced \(sliced.integratedLoudness) against libebur128's \(expected) LUFS")
    }

    /// Step by step, the split slice's pieces sum to what one run from rest over the whole slice sums (the
    /// second segment's warm-up has settled to far below rounding), and the end states agree as closely. Not to
    /// the bit: two runs from different states round differently, and the filter's poles near 1 carry each
    /// rounding a long way (up to 4·10⁻⁹ of the state at 192 kHz, 5·10⁻¹⁰ of a step's sum).
    static let tolerance = 1e-8

    @Test(arguments: [(44100, Int64(0)), (48000, 4799), (96000, 123_457), (192000, 1)])
    func splitPiecesMatchOneRunFromRest(sampleRate: Int, firstFrame: Int64) {
        let samples = GatedLoudnessMeterTests.signal(sampleRate: sampleRate, channels: 2)
        let weighting = KWeighting(channelCount: 2, sampleRate: sampleRate)
        let slice = LoudnessSlice(weighting: weighting)
        for length in [1 << 17, 2 * weighting.settleFrames + 4, 3 * weighting.settleFrames + 1] {
            let errors = samples[0..<(2 * length)].withUnsafeBufferPointer { Self.splitErrors(slice, $0, firstFrame: firstFrame) }
            #expect(errors.sum < Self.tolerance, "\(length) frames: step sums' largest relative error \(errors.sum)")
            #expect(errors.state < Self.tolerance, "\(length) frames: end state's largest relative error \(errors.state)")
        }
    }

    /// The second segment's warm-up is long enough where it matters most: the stream is loud (a full-scale offset,
    /// which charges the high-pass) up to the frame the second segment starts from rest, and 80 dB quieter from
    /// there, so what the warm-up leaves unsettled stands out against the quiet pieces. A warm-up a quarter as
    /// long misses by 10⁻⁵.
    @Test(arguments: [44100, 48000, 192000])
    func warmUpSettlesAfterALoudStretch(sampleRate: Int) {
        let weighting = KWeighting(channelCount: 2, sampleRate: sampleRate)
        let slice = LoudnessSlice(weighting: weighting)
        let length = 1 << 17
        let secondStart = length - LoudnessSlice.segmentFrames(frameCount: length, settleFrames: weighting.settleFrames)
        var generator = SeededGenerator(seed: UInt64(sampleRate))
        var samples = [Float](repeating: 0, count: 2 * length)
        for index in samples.indices {
            let noise = Float(Double.random(in: -1...1, using: &generator))
            samples[index] = index < 2 * secondStart ? (index % 2 == 0 ? 0.9 : -0.9) + 0.05 * noise : 1e-4 * noise
        }
        let errors = samples.withUnsafeBufferPointer { Self.splitErrors(slice, $0, firstFrame: 7) }
        #expect(errors.sum < Self.tolerance, "step sums' largest relative error \(errors.sum)")
        #expect(errors.state < Self.tolerance, "end state's largest relative error \(errors.state)")
    }

    /// Measures `part` (stereo, from stream frame `firstFrame`) in `slice`, which must split it, and weights it
    /// again in one run from rest, step by step as the pieces fall: the largest relative error of a step's sum
    /// (the slice's pieces over the same frames) and of the end state (against its largest value).
    static func splitErrors(_ slice: LoudnessSlice, _ part: UnsafeBufferPointer<Float>, firstFrame: Int64) -> (sum: Double, state: Double) {
        guard let base = part.baseAddress else { return (.infinity, .infinity) }
        let weighting = slice.weighting
        let length = part.count / 2
        slice.measure(part, firstFrame: firstFrame)
        #expect(slice.isSplit)
        var largestSumError = 0.0
        // The single-segment weighting from rest: the head, then one sum per step.
        var state = [Double](repeating: 0, count: 16)
        var sums = [0.0, 0.0]
        weighting.run(base, frameCount: slice.headFrameCount, state: &state, sums: &sums)
        var frame = slice.headFrameCount
        var piece = 0
        while frame < length {
            let stepFrames = Int64(weighting.stepFrames)
            let stepEnd = Int((firstFrame + Int64(frame)) / stepFrames * stepFrames + stepFrames - firstFrame)
            let run = min(length, stepEnd) - frame
            sums = [0, 0]
            weighting.run(base + 2 * frame, frameCount: run, state: &state, sums: &sums)
            // The slice's pieces over the same frames (one, or two where the segments meet).
            var pieceSums = [0.0, 0.0]
            var covered = 0
            while covered < run && piece < slice.pieceFrames.count {
                covered += slice.pieceFrames[piece]
                pieceSums[0] += slice.pieceSums[2 * piece]
                pieceSums[1] += slice.pieceSums[2 * piece + 1]
                piece += 1
            }
            #expect(covered == run, "pieces keep the step boundaries (frame \(frame) of \(length))")
            for channel in 0..<2 { largestSumError = max(largestSumError, abs(pieceSums[channel] - sums[channel]) / sums[channel]) }
            frame += run
        }
        #expect(piece == slice.pieceFrames.count)
        let scale = state.map(abs).max() ?? 0
        let largestStateError = (0..<16).map { abs(slice.endState[$0] - state[$0]) / scale }.max() ?? 0
        return (largestSumError, largestStateError)
    }

    /// A slice measured again, after others, gives the same bits; and in Swift's loop it gives the AVX lanes' bits,
    /// so a meter fed either measures the same to the bit.
    @Test(arguments: [44100, 48000])
    func sameSliceSameBits(sampleRate: Int) {
        let samples = GatedLoudnessMeterTests.signal(sampleRate: sampleRate, channels: 2)
        let weighting = KWeighting(channelCount: 2, sampleRate: sampleRate)
        let vector = LoudnessSlice(weighting: weighting)
        let swift = LoudnessSlice(weighting: weighting, usesVectorLanes: false)
        let vectorMeter = GatedLoudnessMeter(weighting: weighting)
        let swiftMeter = GatedLoudnessMeter(weighting: weighting)
        let lengths = Self.lengths(weighting)
        samples.withUnsafeBufferPointer { all in
            Self.forEachSlice(of: all, lengths: lengths) { part, firstFrame in
                let frames = part.count / 2
                vector.measure(part, firstFrame: firstFrame)
                let first = (vector.pieceFrames, vector.pieceSums.map(\.bitPattern), vector.endState.map(\.bitPattern))
                // Something else in between, then the same slice again.
                let other = UnsafeBufferPointer(rebasing: all[0..<min(all.count, 2 * 70_000)])
                vector.measure(other, firstFrame: 999)
                vector.measure(part, firstFrame: firstFrame)
                #expect(vector.pieceFrames == first.0 && vector.pieceSums.map(\.bitPattern) == first.1)
                // A slice no longer than its head leaves the end state alone (the meter weights it all).
                let hasPieces = vector.headFrameCount < frames
                #expect(!hasPieces || vector.endState.map(\.bitPattern) == first.2)
                swift.measure(part, firstFrame: firstFrame)
                #expect(swift.pieceFrames == first.0 && swift.pieceSums.map(\.bitPattern) == first.1, "Swift's loop, slice at \(firstFrame)")
                #expect(!hasPieces || swift.endState.map(\.bitPattern) == first.2, "Swift's loop's end state, slice at \(firstFrame)")
                vectorMeter.add(vector, samples: part)
                swiftMeter.add(swift, samples: part)
            }
        }
        #expect(vectorMeter.integratedLoudness.bitPattern == swiftMeter.integratedLoudness.bitPattern)
    }
}
