/// What a thread of its own meters of one slice of a stream, so that the K-weighting of many slices runs on
/// many cores while one `GatedLoudnessMeter` takes them in order (`GatedLoudnessMeter.add(_:samples:)`).
///
/// The filter is linear, so a slice weighted from rest (zero state) differs from the same slice weighted from
/// the true state at its start only by the filter's response to that state, which dies away within
/// `KWeighting.settleFrames`. A slice therefore keeps what it weighted from rest after its first
/// `settleFrames` frames (its sums of squares in pieces, one a 100 ms step, and the state at its end), and the
/// meter weights the first frames itself from the previous slice's state. The figures depend only on where
/// the slices start, never on which thread metered which: a stream cut into the same slices meters the same to
/// the last bit, on one thread or many. Reused slice after slice; one owner at a time.
///
/// A stereo slice long enough is weighted as two segments at once (`SegmentPairWeighting`: AVX's four lanes
/// where the machine has them, the same bits from Swift's loop where not), for the filter's recurrence leaves
/// a single stereo run waiting between frames. Of n frames, with L = ⌈(n + settleFrames) / 2⌉: the first
/// segment is frames [0, L), its head and then its pieces as above; the second is frames [n − L, n), weighted
/// from rest too, its first 2L − n ≥ settleFrames frames a warm-up whose sums are dropped, its pieces from frame L
/// on. The warm-up is exact for the reason the head is: the filter is linear, and after `settleFrames` frames
/// the response to the true state at frame n − L (which the run from rest lacks) has fallen below 10⁻²⁰ of it,
/// far below a Double's rounding of the outputs (the sums then differ from one run over the slice only as two
/// roundings of the same sums do: under 10⁻⁹ of a step's sum, tested). A piece that straddles frame L becomes
/// two, the first segment's last and the second's first, and the meter adds both into the one step. The end
/// state is the second segment's. L depends only on the slice's length, so the figures still depend only on
/// where slices start (and on nothing about the machine: the AVX lanes and the Swift loop give the same bits).
/// On a 48 kHz slice of 131 072 frames the lockstep runs 70 386 frames of both segments, each about as costly as
/// one frame of the single stereo run: the slice's weighting takes about 0.6 of the time.
public final class LoudnessSlice {
    let weighting: KWeighting
    /// Both segments' weighting, for stereo.
    private let pair: SegmentPairWeighting?
    /// The stream frame of the slice's first frame.
    public private(set) var firstFrame: Int64 = 0
    /// Frames in the slice.
    public private(set) var frameCount = 0
    /// Frames at the start the meter weights from the true state: `settleFrames`, or the whole of a slice that
    /// is not a few frames longer.
    public private(set) var headFrameCount = 0
    /// Frames in each piece after the head, in order (a piece ends at a step boundary or the slice's end).
    private(set) var pieceFrames: [Int] = []
    /// Per piece, each channel's sum of squared outputs.
    private(set) var pieceSums: [Double] = []
    /// The filter state at the slice's end (eight Doubles a channel), weighted from rest: meaningful when
    /// the slice has pieces.
    private(set) var endState: [Double]
    /// The second segment's pieces (frames, then sums) until they follow the first's.
    private var laterPieceFrames: [Int] = []
    private var laterPieceSums: [Double] = []
    /// Whether the last slice was weighted as two segments.
    public private(set) var isSplit = false
    /// The largest sample magnitude of the last slice, by `SamplePeak`'s rule (the largest bit pattern with the
    /// sign cleared, NaN included), when the AVX kernel read every frame; nil otherwise.
    public private(set) var largestMagnitude: Float?

    /// A slice for frames `weighting` weights; a stereo one in AVX when `usesVectorLanes` and the machine has it
    /// (tests compare it with Swift's loop).
    public init(weighting: KWeighting, usesVectorLanes: Bool = SegmentPairWeighting.vectorLanesAvailable) {
        self.weighting = weighting
        endState = Array(repeating: 0, count: weighting.channelCount * 8)
        pair = weighting.channelCount == 2 ? SegmentPairWeighting(weighting: weighting, usesVectorLanes: usesVectorLanes) : nil
    }

    /// Frames a slice needs to be weighted as two segments: the split's extra frames (the second segment's
    /// warm-up) cost less than half of what the lockstep saves.
    private var splitFrameCount: Int { 2 * weighting.settleFrames + 4 }

    /// Meters `samples` (whole interleaved frames), the stream's frames from `firstFrame` on.
    public func measure(_ samples: UnsafeBufferPointer<Float>, firstFrame: Int64) {
        let channels = weighting.channelCount
        self.firstFrame = firstFrame
        frameCount = samples.count / channels
        // The last few frames' state must come from the pieces, so a head reaches the end or stops well short.
        headFrameCount = frameCount <= weighting.settleFrames + 4 ? frameCount : weighting.settleFrames
        pieceFrames.removeAll(keepingCapacity: true)
        pieceSums.removeAll(keepingCapacity: true)
        isSplit = false
        largestMagnitude = nil
        guard headFrameCount < frameCount, let base = samples.baseAddress else { return }
        if let pair, frameCount >= splitFrameCount {
            measureSplit(base, pair: pair)
            return
        }
        let stepFrames = Int64(weighting.stepFrames)
        endState.withUnsafeMutableBufferPointer { state in
            guard let state = state.baseAddress else { return }
            state.update(repeating: 0, count: channels * 8)
            withUnsafeTemporaryAllocation(of: Double.self, capacity: channels) { sums in
                guard let sums = sums.baseAddress else { return }
                // From rest through the head (its sums are the meter's to make), then piece by piece.
                sums.update(repeating: 0, count: channels)
                weighting.run(base, frameCount: headFrameCount, state: state, sums: sums)
                var frame = headFrameCount
                while frame < frameCount {
                    let stepEnd = (firstFrame + Int64(frame)) / stepFrames * stepFrames + stepFrames
                    let run = min(frameCount - frame, Int(stepEnd - firstFrame) - frame)
                    sums.update(repeating: 0, count: channels)
                    weighting.run(base + frame * channels, frameCount: run, state: state, sums: sums)
                    pieceFrames.append(run)
                    for channel in 0..<channels { pieceSums.append(sums[channel]) }
                    frame += run
                }
            }
        }
    }

    /// Frames in each of a split slice's two segments, L = ⌈(n + settleFrames) / 2⌉ of its n: the two overlap by
    /// 2L − n ≥ settleFrames, the second segment's warm-up.
    static func segmentFrames(frameCount: Int, settleFrames: Int) -> Int { (frameCount + settleFrames + 1) / 2 }

    /// Weights the slice from `base` as two segments in lockstep (see the type's notes).
    private func measureSplit(_ base: UnsafePointer<Float>, pair: SegmentPairWeighting) {
        let n = frameCount
        let settle = weighting.settleFrames
        let segmentFrames = Self.segmentFrames(frameCount: n, settleFrames: settle)
        let secondStart = n - segmentFrames
        let stepFrames = Int64(weighting.stepFrames)
        // The end of the step holding slice frame `frame`, as a slice frame, no later than `limit`.
        func stepEnd(after frame: Int, limit: Int) -> Int {
            let streamEnd = (firstFrame + Int64(frame)) / stepFrames * stepFrames + stepFrames
            return min(limit, Int(streamEnd - firstFrame))
        }
        laterPieceFrames.removeAll(keepingCapacity: true)
        laterPieceSums.removeAll(keepingCapacity: true)
        pair.reset()
        // Lockstep frames run; each segment's piece (or head, or warm-up) began at its frame `firstBegan` / `secondBegan`.
        var done = 0
        var firstBegan = 0
        var secondBegan = secondStart
        while done < segmentFrames {
            let first = done, second = secondStart + done
            let firstEnd = first < settle ? settle : stepEnd(after: first, limit: segmentFrames)
            let secondEnd = second < segmentFrames ? segmentFrames : stepEnd(after: second, limit: n)
            let run = min(firstEnd - first, secondEnd - second)
            pair.run(first: base + 2 * first, second: base + 2 * second, frameCount: run)
            done += run
            if first + run == firstEnd {
                // The head's sums are the meter's to make.
                finishPiece(ofSegment: 0, began: &firstBegan, end: firstEnd, keptFrom: settle, pair: pair, frames: &pieceFrames, sums: &pieceSums)
            }
            if second + run == secondEnd {
                // The warm-up's sums are dropped.
                finishPiece(ofSegment: 1, began: &secondBegan, end: secondEnd, keptFrom: segmentFrames, pair: pair, frames: &laterPieceFrames, sums: &laterPieceSums)
            }
        }
        pieceFrames.append(contentsOf: laterPieceFrames)
        pieceSums.append(contentsOf: laterPieceSums)
        endState.withUnsafeMutableBufferPointer { state in
            guard let state = state.baseAddress else { return }
            pair.copyState(ofSegment: 1, to: state)
        }
        isSplit = true
        largestMagnitude = pair.largestMagnitude
    }

    /// Ends what segment `segment` weighted since frame `began` at frame `end`: a piece, kept in `frames` and
    /// `sums` when it began at `keptFrom` or later (a head or a warm-up before it is not), its sums then cleared.
    private func finishPiece(
        ofSegment segment: Int, began: inout Int, end: Int, keptFrom: Int, pair: SegmentPairWeighting, frames: inout [Int], sums: inout [Double]
    ) {
        if began >= keptFrom {
            let pieceSums = pair.sums(ofSegment: segment)
            frames.append(end - began)
            sums.append(pieceSums.left)
            sums.append(pieceSums.right)
        }
        pair.clearSums(ofSegment: segment)
        began = end
    }
}
