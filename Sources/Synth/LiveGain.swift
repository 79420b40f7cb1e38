/// The listener's volume during live playback: a gain ahead of the true-peak limiter, moved by linear ramps.
///
/// Set between blocks (`Renderer.setLiveGain(decibels:)`); the renderer reads it once per control block and
/// steps it per frame. A change ramps linearly in amplitude over `rampFrameCount` frames from wherever the gain
/// stands (a change during a ramp starts from the current value), so the largest change between two frames is
/// |Δgain| / `rampFrameCount`: no click. At 0 dB with no ramp running it is not applied at all, so a render
/// that never moved the volume is bit for bit the plain render.
struct LiveGain {
    /// The gain now, as an amplitude factor.
    private(set) var current: Float = 1
    /// The gain the ramp moves to.
    private(set) var target: Float = 1
    /// The change per frame while ramping.
    private var stepPerFrame: Float = 0
    /// Frames until `current` reaches `target`.
    private var remainingFrameCount = 0
    /// Frames a full change takes (50 ms at the render's rate).
    let rampFrameCount: Int

    init(sampleRate: Int) {
        rampFrameCount = max(1, sampleRate / 20)
    }

    /// Whether samples pass untouched (gain 1, no ramp).
    var isUnity: Bool { remainingFrameCount == 0 && current == 1 }

    /// Starts a ramp from the current gain to `gain`; `immediately` jumps there (before any sound).
    mutating func set(to gain: Float, immediately: Bool) {
        target = gain
        if immediately || gain == current {
            current = gain
            remainingFrameCount = 0
            stepPerFrame = 0
            return
        }
        remainingFrameCount = rampFrameCount
        stepPerFrame = (gain - current) / Float(rampFrameCount)
    }

    /// Multiplies `frameCount` interleaved frames of `samples` by the gain, advancing the ramp.
    mutating func apply(to samples: UnsafeMutablePointer<Float>, frameCount: Int, channelCount: Int) {
        var index = 0
        var frame = 0
        while frame < frameCount && remainingFrameCount > 0 {
            remainingFrameCount -= 1
            current = remainingFrameCount == 0 ? target : current + stepPerFrame
            for _ in 0..<channelCount {
                samples[index] *= current
                index += 1
            }
            frame += 1
        }
        guard frame < frameCount, current != 1 else { return }
        let gain = current
        for sample in index..<(frameCount * channelCount) { samples[sample] *= gain }
    }
}
