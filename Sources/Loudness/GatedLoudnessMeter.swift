import NagiMath

/// The integrated loudness of a stream (ITU-R BS.1770-4 / EBU R128: K-weighting, 400 ms blocks every 100 ms,
/// the −70 LUFS absolute and −10 LU relative gates), computed as libebur128 computes it but in a tight loop of
/// its own: the gain tags meter every file nagi writes, and libebur128's per-sample loop (its interleaving,
/// channel map and mode checks) cost 0.65 s of CPU per 10 minutes of stereo, twice the synthesis; this one
/// costs about a twentieth of that. The same filter coefficients (libebur128's, from the sample rate) and the same
/// block arithmetic: the figures agree with libebur128's to 0.01 LU (tested) and with ffmpeg's meter within its
/// 0.1 LU. Every channel weighs 1 (nagi writes mono and stereo). Fed in order, as samples or as slices other
/// threads metered (`LoudnessSlice`); one owner.
public final class GatedLoudnessMeter {
    private let weighting: KWeighting
    /// Per channel, the filter's state (`KWeighting`).
    private var history: [Double]
    /// Each channel's weighted sum of squares of the current step so far, and the step's frames so far.
    private var stepSums: [Double]
    private var stepFilled = 0
    /// Frames metered so far.
    private var framesAdded: Int64 = 0
    /// The last four steps' sums (a block is four steps), and how many have been seen.
    private var lastSteps: [Double] = [0, 0, 0, 0]
    private var stepCount = 0
    /// Every block's mean square, in order, in single precision: a 3-hour file has 108 000 blocks (0.4 MB so,
    /// twice that in Double), and a relative error of 10⁻⁷ moves the loudness by under 10⁻⁶ LU.
    private var blockEnergies: [Float] = []

    /// A meter for interleaved frames of `channelCount` channels at `sampleRate`.
    public convenience init(channelCount: Int, sampleRate: Int) {
        self.init(weighting: KWeighting(channelCount: channelCount, sampleRate: sampleRate))
    }

    /// A meter for the frames `weighting` weights.
    public init(weighting: KWeighting) {
        self.weighting = weighting
        history = Array(repeating: 0, count: weighting.channelCount * 8)
        stepSums = Array(repeating: 0, count: weighting.channelCount)
    }

    /// A slice to meter a part of the stream in (on any thread) for `add(_:samples:)`.
    public func makeSlice() -> LoudnessSlice { LoudnessSlice(weighting: weighting) }

    /// Adds interleaved samples (a whole number of frames), the stream's next.
    public func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        weigh(base, frameCount: samples.count / weighting.channelCount)
    }

    /// Adds the stream's next frames, `samples`, metered as `slice` (`LoudnessSlice.measure`): the first of
    /// them weighted here from the state the previous frames left, the rest taken from the slice.
    public func add(_ slice: LoudnessSlice, samples: UnsafeBufferPointer<Float>) {
        let channels = weighting.channelCount
        precondition(slice.firstFrame == framesAdded && slice.frameCount == samples.count / channels, "slices must come in order, with their samples")
        guard let base = samples.baseAddress else { return }
        weigh(base, frameCount: slice.headFrameCount)
        guard slice.headFrameCount < slice.frameCount else { return }
        for piece in slice.pieceFrames.indices {
            for channel in 0..<channels { stepSums[channel] += slice.pieceSums[piece * channels + channel] }
            stepFilled += slice.pieceFrames[piece]
            if stepFilled == weighting.stepFrames { finishStep() }
        }
        framesAdded += Int64(slice.frameCount - slice.headFrameCount)
        // Element by element: the slice is measured again while this state is in use.
        for index in history.indices { history[index] = slice.endState[index] }
    }

    /// Weights `frameCount` frames from `base` from the current state, step by step.
    private func weigh(_ base: UnsafePointer<Float>, frameCount: Int) {
        let channels = weighting.channelCount
        var frame = 0
        while frame < frameCount {
            let run = min(frameCount - frame, weighting.stepFrames - stepFilled)
            history.withUnsafeMutableBufferPointer { history in
                stepSums.withUnsafeMutableBufferPointer { sums in
                    guard let state = history.baseAddress, let sums = sums.baseAddress else { return }
                    weighting.run(base + frame * channels, frameCount: run, state: state, sums: sums)
                }
            }
            stepFilled += run
            frame += run
            if stepFilled == weighting.stepFrames { finishStep() }
        }
        framesAdded += Int64(frameCount)
    }

    /// Ends a 100 ms step; from the fourth on, each ends a 400 ms block.
    private func finishStep() {
        var stepEnergy = 0.0
        for channel in stepSums.indices {
            stepEnergy += stepSums[channel]
            stepSums[channel] = 0
        }
        lastSteps[stepCount % 4] = stepEnergy
        stepCount += 1
        stepFilled = 0
        if stepCount >= 4 {
            blockEnergies.append(Float((lastSteps[0] + lastSteps[1] + lastSteps[2] + lastSteps[3]) / Double(4 * weighting.stepFrames)))
        }
    }

    /// The integrated loudness so far, LUFS (−∞ when no block passes the gates).
    public var integratedLoudness: Double { Self.integratedLoudness(of: [self]) }

    /// The integrated loudness of consecutive stretches metered apart, LUFS: their gating blocks pooled, as
    /// `ebur128_loudness_global_multiple` pools its states (the blocks straddling a seam are missing; −∞ when no
    /// block passes the gates).
    public static func integratedLoudness(of meters: [GatedLoudnessMeter]) -> Double {
        let absoluteGate = pow(10, (-70 + 0.691) / 10)
        let loud = meters.flatMap { $0.blockEnergies.lazy.map(Double.init).filter { $0 >= absoluteGate } }
        guard !loud.isEmpty else { return -.infinity }
        let relativeGate = loud.reduce(0, +) / Double(loud.count) * pow(10, -1)
        let gated = loud.filter { $0 >= relativeGate }
        guard !gated.isEmpty else { return -.infinity }
        return -0.691 + 10 * log10(gated.reduce(0, +) / Double(gated.count))
    }
}
