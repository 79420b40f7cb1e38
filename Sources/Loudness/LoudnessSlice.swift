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
public final class LoudnessSlice {
    let weighting: KWeighting
    /// The stream frame of the slice's first frame.
    public private(set) var firstFrame: Int64 = 0
    /// Frames in the slice.
    public private(set) var frameCount = 0
    /// Frames at the start the meter weights from the true state: `settleFrames`, or the whole of a slice that
    /// is not a few frames longer.
    private(set) var headFrameCount = 0
    /// Frames in each piece after the head, in order (a piece ends at a step boundary or the slice's end).
    private(set) var pieceFrames: [Int] = []
    /// Per piece, each channel's sum of squared outputs.
    private(set) var pieceSums: [Double] = []
    /// The filter state at the slice's end (eight Doubles a channel), weighted from rest: meaningful when
    /// the slice has pieces.
    private(set) var endState: [Double]

    /// A slice for frames `weighting` weights.
    public init(weighting: KWeighting) {
        self.weighting = weighting
        endState = Array(repeating: 0, count: weighting.channelCount * 8)
    }

    /// Meters `samples` (whole interleaved frames), the stream's frames from `firstFrame` on.
    public func measure(_ samples: UnsafeBufferPointer<Float>, firstFrame: Int64) {
        let channels = weighting.channelCount
        self.firstFrame = firstFrame
        frameCount = samples.count / channels
        // The last few frames' state must come from the pieces, so a head reaches the end or stops well short.
        headFrameCount = frameCount <= weighting.settleFrames + 4 ? frameCount : weighting.settleFrames
        pieceFrames.removeAll(keepingCapacity: true)
        pieceSums.removeAll(keepingCapacity: true)
        guard headFrameCount < frameCount, let base = samples.baseAddress else { return }
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
}
