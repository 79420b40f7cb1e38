import Loudness
import NagiTestSupport
import Synth
import Testing

/// The AVX kernel's four lanes against Swift's two-lane loop: the same bits for the outputs' sums and the
/// filter states, however the frames are cut into runs and whenever a segment's sums are cleared, and each
/// segment the same as `KWeighting.run` weighting it alone; its peak the same as `SamplePeak`'s.
@Suite struct SegmentPairWeightingTests {
    /// Interleaved stereo noise whose level jumps every few thousand frames (from loud to far below the
    /// smallest normal Float's square), with stretches of silence, so the sums span many magnitudes.
    static func signal(frames: Int, seed: UInt64) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        var samples = [Float](repeating: 0, count: 2 * frames)
        var level = 0.5
        for frame in 0..<frames {
            if frame % 3000 == 0 { level = [0.9, 0.3, 0.01, 1e-6, 0, 1e-30][Int.random(in: 0..<6, using: &generator)] }
            samples[2 * frame] = Float(level * Double.random(in: -1...1, using: &generator))
            samples[2 * frame + 1] = Float(level * Double.random(in: -1...1, using: &generator))
        }
        return samples
    }

    /// A Double's bits, for comparisons that tell −0 from +0 and NaN from NaN.
    static func bits(_ values: [Double]) -> [UInt64] { values.map(\.bitPattern) }

    @Test(.enabled(if: SegmentPairWeighting.vectorLanesAvailable), arguments: [(44100, UInt64(1)), (48000, 2), (96000, 3), (8000, 4)])
    func vectorLanesMatchSwiftLoopInAnyChunking(sampleRate: Int, seed: UInt64) {
        let weighting = KWeighting(channelCount: 2, sampleRate: sampleRate)
        let frames = 40_000
        let samples = Self.signal(frames: 2 * frames, seed: seed)
        var generator = SeededGenerator(seed: seed &* 977)
        let vector = SegmentPairWeighting(weighting: weighting, usesVectorLanes: true)
        let swift = SegmentPairWeighting(weighting: weighting, usesVectorLanes: false)
        #expect(vector.usesVectorLanes && !swift.usesVectorLanes)
        samples.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            // The second segment reads the signal's second half, so the two differ.
            let second = base + 2 * frames
            var done = 0
            var clears = 0
            while done < frames {
                let run = min(frames - done, [1, 2, 3, 5, 17, 480, 4410, 9000][Int.random(in: 0..<8, using: &generator)])
                vector.run(first: base + 2 * done, second: second + 2 * done, frameCount: run)
                swift.run(first: base + 2 * done, second: second + 2 * done, frameCount: run)
                done += run
                for segment in 0..<2 {
                    let (v, s) = (vector.sums(ofSegment: segment), swift.sums(ofSegment: segment))
                    #expect(v.left.bitPattern == s.left.bitPattern && v.right.bitPattern == s.right.bitPattern, "segment \(segment) at frame \(done)")
                }
                let segment = Int.random(in: 0..<4, using: &generator)
                if segment < 2 {
                    vector.clearSums(ofSegment: segment)
                    swift.clearSums(ofSegment: segment)
                    clears += 1
                }
            }
            #expect(clears > 3)
            for segment in 0..<2 {
                var vectorState = [Double](repeating: 0, count: 16), swiftState = vectorState
                vector.copyState(ofSegment: segment, to: &vectorState)
                swift.copyState(ofSegment: segment, to: &swiftState)
                #expect(Self.bits(vectorState) == Self.bits(swiftState), "segment \(segment)'s state")
                #expect(vectorState.contains { $0 != 0 })
            }
        }
    }

    /// Run in one go from rest, each lane pair gives what `KWeighting.run` gives for its segment alone: the
    /// kernel's lanes neither mix segments nor channels, and round as the Swift loop rounds.
    @Test(.enabled(if: SegmentPairWeighting.vectorLanesAvailable), arguments: [44100, 48000, 192000])
    func eachSegmentAsWeightedAlone(sampleRate: Int) {
        let weighting = KWeighting(channelCount: 2, sampleRate: sampleRate)
        let frames = 30_001
        let samples = Self.signal(frames: 2 * frames, seed: UInt64(sampleRate))
        let pair = SegmentPairWeighting(weighting: weighting, usesVectorLanes: true)
        samples.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            let starts = [base, base + 2 * frames]
            pair.run(first: starts[0], second: starts[1], frameCount: frames)
            for segment in 0..<2 {
                var state = [Double](repeating: 0, count: 16)
                var sums = [0.0, 0.0]
                weighting.run(starts[segment], frameCount: frames, state: &state, sums: &sums)
                var pairState = [Double](repeating: 0, count: 16)
                pair.copyState(ofSegment: segment, to: &pairState)
                let pairSums = pair.sums(ofSegment: segment)
                #expect(Self.bits(pairState) == Self.bits(state), "segment \(segment)'s state")
                #expect(Self.bits([pairSums.left, pairSums.right]) == Self.bits(sums), "segment \(segment)'s sums")
            }
        }
    }

    /// The peak the kernel finds while it weights a slice is `SamplePeak`'s, bit for bit: signed zeros,
    /// infinities and NaNs of several payloads (the largest payload wins) included.
    @Test(.enabled(if: SegmentPairWeighting.vectorLanesAvailable), arguments: 0..<6)
    func kernelPeakIsSamplePeaks(variant: Int) {
        let weighting = KWeighting(channelCount: 2, sampleRate: 48000)
        var samples = Self.signal(frames: 50_000, seed: UInt64(variant + 10))
        var generator = SeededGenerator(seed: UInt64(variant))
        let specials: [Float] = [-0.0, 0.0, .infinity, -.infinity, .nan, -.nan, Float(bitPattern: 0x7FC0_1234), Float(bitPattern: 0xFFFF_FFFF), -1.5, 2]
        for _ in 0..<variant {
            samples[Int.random(in: 0..<samples.count, using: &generator)] = specials[Int.random(in: 0..<specials.count, using: &generator)]
        }
        // The loudest sample in each place a segment boundary could hide it: first and last frames, each channel.
        if variant == 1 { samples[0] = -3 }
        if variant == 2 { samples[samples.count - 1] = 3 }
        if variant == 3 { samples[samples.count / 2 + 1] = -.nan }
        let slice = LoudnessSlice(weighting: weighting)
        samples.withUnsafeBufferPointer { all in
            slice.measure(all, firstFrame: 12345)
            #expect(slice.isSplit)
            #expect(slice.largestMagnitude?.bitPattern == SamplePeak.largestMagnitude(of: all).bitPattern)
        }
    }
}
