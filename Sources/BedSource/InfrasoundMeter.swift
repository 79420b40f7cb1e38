import NagiMath

/// How much of a bed lies under 15 Hz once the DC-blocking high-pass has taken its share: the energy through a
/// 4th-order Butterworth low-pass at `cutoffHz`, per channel. The high-pass leaves a strong infrasound 48 dB down
/// (5 Hz), and a loudness match that raises the recording by up to 30 dB would bring that back into the mix
/// (a 5 Hz sine at −6 dBFS came out at −38 dBFS under 15 Hz); the match's gain is held so it does not
/// (`BedMix.gainDecibels(loudness:levelDecibels:infrasoundDecibels:)`).
///
/// Interleaved frames of any channel count, at the recording's rate; meters of several excerpts pool by
/// `pooled(_:)`. One owner.
public struct InfrasoundMeter: Sendable {
    /// The low-pass's cut-off, Hz: "under 15 Hz".
    public static let cutoffHz = 15.0

    private let sections: [BiquadCoefficients]
    private let channelCount: Int
    /// Per section and channel: the two state values.
    private var state: [Double]
    /// Per channel: the sum of the squared low-passed samples.
    private var energies: [Double]
    /// Frames metered.
    private var frameCount = 0

    /// A meter for interleaved frames of `channelCount` channels at `sampleRate`.
    public init(sampleRate: Int, channelCount: Int) {
        self.channelCount = channelCount
        sections = ButterworthSections.fourthOrder(cutoffHz: Self.cutoffHz, sampleRate: sampleRate, highPass: false)
        state = Array(repeating: 0, count: 2 * 2 * channelCount)
        energies = Array(repeating: 0, count: channelCount)
    }

    /// Meters `samples` (interleaved, a whole number of frames), continuing from the frames before.
    public mutating func add(_ samples: UnsafeBufferPointer<Float>) {
        let channels = channelCount
        let frames = samples.count / channels
        for channel in 0..<channels {
            var energy = energies[channel]
            var states = (state[channel * 2], state[channel * 2 + 1], state[(channels + channel) * 2], state[(channels + channel) * 2 + 1])
            let (first, second) = (sections[0], sections[1])
            for frame in 0..<frames {
                let x = Double(samples[frame * channels + channel])
                let y = first.b0 * x + states.0
                states.0 = first.b1 * x - first.a1 * y + states.1
                states.1 = first.b2 * x - first.a2 * y
                let z = second.b0 * y + states.2
                states.2 = second.b1 * y - second.a1 * z + states.3
                states.3 = second.b2 * y - second.a2 * z
                energy += z * z
            }
            (state[channel * 2], state[channel * 2 + 1], state[(channels + channel) * 2], state[(channels + channel) * 2 + 1]) = states
            energies[channel] = energy
        }
        frameCount += frames
    }

    /// The RMS under `cutoffHz` of the loudest channel over everything metered, dBFS (−∞ for nothing).
    public var decibels: Double {
        Self.pooled([self])
    }

    /// The RMS under `cutoffHz` of the loudest channel over everything `meters` metered together, dBFS (−∞ for
    /// nothing or silence).
    public static func pooled(_ meters: [InfrasoundMeter]) -> Double {
        let frames = meters.reduce(0) { $0 + $1.frameCount }
        guard frames > 0, let channels = meters.first?.channelCount else { return -.infinity }
        let loudest = (0..<channels).map { channel in meters.reduce(0.0) { $0 + $1.energies[channel] } }.max() ?? 0
        return 10 * log10(loudest / Double(frames))
    }
}
