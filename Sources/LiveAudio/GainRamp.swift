import Glibc

/// A smooth gain change over a whole number of frames: a raised cosine from `startGain` to `endGain`.
///
/// Frame k of the ramp (k = 0 ..< frameCount) gets `gain(at: k)`; the last frame gets exactly `endGain`, and frames
/// after the ramp keep it. The gain is a pure function of the frame's place in the ramp, so a ramp interrupted by a
/// short write simply resumes at `position`. The largest step between two frames is (π / 2) · |end − start| / frameCount.
struct GainRamp {
    let startGain: Double
    let endGain: Double
    let frameCount: Int
    /// Frames of the ramp the sink has accepted so far.
    private(set) var position: Int = 0

    /// Gain 1, nothing to ramp: samples pass bit for bit.
    static let unity = GainRamp(from: 1, to: 1, frameCount: 0)
    /// Gain 0 from the first frame: used when the sound is already silent (an underrun during a fade-out).
    static let silence = GainRamp(from: 0, to: 0, frameCount: 0)

    init(from startGain: Double, to endGain: Double, frameCount: Int) {
        self.startGain = startGain
        self.endGain = endGain
        self.frameCount = Swift.max(0, frameCount)
    }

    var isComplete: Bool { position >= frameCount }
    /// Complete at gain 1: samples can go to the sink untouched.
    var isUnity: Bool { isComplete && endGain == 1 }
    /// Complete at gain 0: a fade-out has ended.
    var isSilent: Bool { isComplete && endGain == 0 }
    /// Frames until the ramp reaches `endGain`.
    var remainingFrameCount: Int { frameCount - position }
    /// The gain of the last frame accepted (the start gain before any): where a new ramp must begin to avoid a step.
    var currentGain: Double { position == 0 ? startGain : gain(at: position - 1) }

    /// The gain of frame `index` of the ramp.
    func gain(at index: Int) -> Double {
        if index >= frameCount - 1 { return endGain }
        let progress = Double(index + 1) / Double(frameCount)
        return startGain + (endGain - startGain) * (1 - cos(Double.pi * progress)) / 2
    }

    mutating func advance(by acceptedFrameCount: Int) {
        position = Swift.min(frameCount, position + acceptedFrameCount)
    }

    /// Writes `frameCount` frames of `source` times the ramp's gains (from `position` on) into `destination`.
    /// Does not advance: the sink may accept fewer frames than offered.
    func apply(
        from source: UnsafePointer<Float>,
        to destination: UnsafeMutablePointer<Float>,
        frameCount applyFrameCount: Int,
        channelCount: Int
    ) {
        var sampleIndex = 0
        for frame in 0..<applyFrameCount {
            let frameGain = Float(gain(at: position + frame))
            for _ in 0..<channelCount {
                destination[sampleIndex] = source[sampleIndex] * frameGain
                sampleIndex += 1
            }
        }
    }
}
