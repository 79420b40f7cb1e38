import NagiMath

/// The high-pass every user recording (bed and cue clip) goes through before it is measured or heard: a
/// 4th-order Butterworth at 20 Hz (two biquads), which removes a DC offset and the infrasound a speaker cannot
/// play but a loudness match would otherwise boost (5 Hz comes out 48 dB down, 20 Hz 3 dB down, 40 Hz 0.3 dB).
/// Fourth order rather than the second order the issue suggests: at 2nd order a 5 Hz bed keeps −24 dB, which
/// the loudness match then raises right back. Even the −48 dB left at 4th order came back (−38 dBFS in the mix for a
/// 5 Hz sine at −6 dBFS), so a bed's match is also held by what it keeps under 15 Hz (`InfrasoundMeter`).
///
/// It starts from the steady state of its first input frame (as if that value had always been there), so a
/// recording with an offset starts at 0 instead of with a step; `reset` starts it afresh, which a looping bed
/// does at every pass so the output is a function of the place in the pass alone. Interleaved frames of one
/// or two channels, filtered in place. One owner.
public struct DCBlockingFilter: Sendable {
    /// The cut-off, Hz.
    public static let cutoffHz = 20.0

    private let sections: [BiquadCoefficients]
    private let channelCount: Int
    /// Per section and channel: the two state values.
    private var state: [Double]
    private var started = false

    /// A filter for interleaved frames of `channelCount` channels at `sampleRate`.
    public init(sampleRate: Int, channelCount: Int) {
        self.channelCount = channelCount
        sections = ButterworthSections.fourthOrder(cutoffHz: Self.cutoffHz, sampleRate: sampleRate, highPass: true)
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
                // Left and right as the two lanes of SIMD2 values: the same operations per lane in the same
                // order, in half the instructions (the scalar pair was the bed's streaming thread's largest cost).
                typealias Pair = SIMD2<Double>
                let (b0, b1, b2) = (Pair(repeating: first.b0), Pair(repeating: first.b1), Pair(repeating: first.b2))
                let (a1, a2) = (Pair(repeating: first.a1), Pair(repeating: first.a2))
                let (c0, c1, c2) = (Pair(repeating: second.b0), Pair(repeating: second.b1), Pair(repeating: second.b2))
                let (d1, d2) = (Pair(repeating: second.a1), Pair(repeating: second.a2))
                var s1 = Pair(state[0], state[2]), s2 = Pair(state[1], state[3])
                var t1 = Pair(state[4], state[6]), t2 = Pair(state[5], state[7])
                var at = samples
                for _ in 0..<frameCount {
                    let x = Pair(Double(at[0]), Double(at[1]))
                    let y = b0 * x + s1
                    s1 = b1 * x - a1 * y + s2
                    s2 = b2 * x - a2 * y
                    // The second section reads the first's output as stored, rounded to Float.
                    let v = Pair(Double(Float(y.x)), Double(Float(y.y)))
                    let z = c0 * v + t1
                    t1 = c1 * v - d1 * z + t2
                    t2 = c2 * v - d2 * z
                    at[0] = Float(z.x)
                    at[1] = Float(z.y)
                    at += 2
                }
                (state[0], state[1], state[2], state[3]) = (s1.x, s2.x, s1.y, s2.y)
                (state[4], state[5], state[6], state[7]) = (t1.x, t2.x, t1.y, t2.y)
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
