import NagiMath

/// The high-pass every user recording (bed and cue clip) goes through before it is measured or heard: a
/// 4th-order Butterworth at 20 Hz (two biquads), which removes a DC offset and the infrasound a speaker cannot
/// play but a loudness match would otherwise boost (5 Hz comes out 48 dB down, 20 Hz 3 dB down, 40 Hz 0.3 dB).
/// Fourth order rather than the second order the issue suggests: at 2nd order a 5 Hz bed keeps −24 dB, which
/// the loudness match then raises right back.
///
/// It starts from the steady state of its first input frame (as if that value had always been there), so a
/// recording with an offset starts at 0 instead of with a step; `reset` starts it afresh, which a looping bed
/// does at every pass so the output is a function of the place in the pass alone. Interleaved frames of one
/// or two channels, filtered in place. One owner.
public struct DCBlockingFilter: Sendable {
    /// The cut-off, Hz.
    public static let cutoffHz = 20.0

    /// One biquad's coefficients (a₀ = 1), in the transposed direct form II.
    private struct Section: Sendable {
        var b0, b1, b2, a1, a2: Double
    }

    private let sections: [Section]
    private let channelCount: Int
    /// Per section and channel: the two state values.
    private var state: [Double]
    private var started = false

    /// A filter for interleaved frames of `channelCount` channels at `sampleRate`.
    public init(sampleRate: Int, channelCount: Int) {
        self.channelCount = channelCount
        // The bilinear transform of a 4th-order Butterworth high-pass: two sections with Q = 1/(2 cos(π/8)) and
        // 1/(2 cos(3π/8)).
        let k = sin(Double.pi * Self.cutoffHz / Double(sampleRate)) / cos(Double.pi * Self.cutoffHz / Double(sampleRate))
        sections = [Double.pi / 8, 3 * Double.pi / 8].map { angle in
            let q = 1 / (2 * cos(angle))
            let norm = 1 / (1 + k / q + k * k)
            return Section(b0: norm, b1: -2 * norm, b2: norm, a1: 2 * (k * k - 1) * norm, a2: (1 - k / q + k * k) * norm)
        }
        state = Array(repeating: 0, count: 2 * 2 * channelCount)
    }

    /// Starts again: the next frame is treated as the first.
    public mutating func reset() {
        started = false
    }

    /// Filters `frameCount` interleaved frames at `samples` in place.
    public mutating func process(_ samples: UnsafeMutablePointer<Float>, frameCount: Int) {
        guard frameCount > 0 else { return }
        let channels = channelCount
        if !started {
            // For a constant input x the output is 0 (b0 + b1 + b2 = 0) and the first section's states stand at
            // s1 = −b0·x = (b1 + b2)·x and s2 = b2·x; the second section sees 0.
            for channel in 0..<channels {
                let x = Double(samples[channel])
                let first = sections[0]
                state[channel * 2 + 1] = first.b2 * x
                state[channel * 2] = first.b1 * x + first.b2 * x
                state[(channels + channel) * 2] = 0
                state[(channels + channel) * 2 + 1] = 0
            }
            started = true
        }
        // Both sections in one pass over the frames, and both channels of a stereo frame together: four
        // independent chains the processor overlaps, where a section and a channel at a time waited on one
        // chain (this filter was a fifth of a bed render's CPU). Each sample sees the same operations in the
        // same order as before, so the output is the same to the bit.
        let (first, second) = (sections[0], sections[1])
        state.withUnsafeMutableBufferPointer { state in
            if channels == 2 {
                var (l1, l2, r1, r2) = (state[0], state[1], state[2], state[3])
                var (m1, m2, q1, q2) = (state[4], state[5], state[6], state[7])
                var at = samples
                for _ in 0..<frameCount {
                    let left = Double(at[0]), right = Double(at[1])
                    let yl = first.b0 * left + l1
                    l1 = first.b1 * left - first.a1 * yl + l2
                    l2 = first.b2 * left - first.a2 * yl
                    let yr = first.b0 * right + r1
                    r1 = first.b1 * right - first.a1 * yr + r2
                    r2 = first.b2 * right - first.a2 * yr
                    // The second section reads the first's output as stored, rounded to Float.
                    let xl = Double(Float(yl)), xr = Double(Float(yr))
                    let zl = second.b0 * xl + m1
                    m1 = second.b1 * xl - second.a1 * zl + m2
                    m2 = second.b2 * xl - second.a2 * zl
                    let zr = second.b0 * xr + q1
                    q1 = second.b1 * xr - second.a1 * zr + q2
                    q2 = second.b2 * xr - second.a2 * zr
                    at[0] = Float(zl)
                    at[1] = Float(zr)
                    at += 2
                }
                (state[0], state[1], state[2], state[3]) = (l1, l2, r1, r2)
                (state[4], state[5], state[6], state[7]) = (m1, m2, q1, q2)
                return
            }
            for (index, section) in sections.enumerated() {
                for channel in 0..<channels {
                    let offset = (index * channels + channel) * 2
                    var s1 = state[offset]
                    var s2 = state[offset + 1]
                    var at = samples + channel
                    for _ in 0..<frameCount {
                        let x = Double(at.pointee)
                        let y = section.b0 * x + s1
                        s1 = section.b1 * x - section.a1 * y + s2
                        s2 = section.b2 * x - section.a2 * y
                        at.pointee = Float(y)
                        at += channels
                    }
                    state[offset] = s1
                    state[offset + 1] = s2
                }
            }
        }
    }
}
