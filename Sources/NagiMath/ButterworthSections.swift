/// One biquad's coefficients (a₀ = 1), for the transposed direct form II.
public struct BiquadCoefficients: Sendable, Equatable {
    public var b0, b1, b2, a1, a2: Double
}

/// A 4th-order Butterworth filter as two biquads, by the bilinear transform: the high-pass every user recording
/// goes through (`DCBlockingFilter`) and the low-pass that meters what a bed keeps under 15 Hz (`InfrasoundMeter`).
public enum ButterworthSections {
    /// The two sections (Q = 1/(2 cos(π/8)) and 1/(2 cos(3π/8))) of a 4th-order Butterworth at `cutoffHz` for
    /// `sampleRate`, high-pass or low-pass.
    public static func fourthOrder(cutoffHz: Double, sampleRate: Int, highPass: Bool) -> [BiquadCoefficients] {
        let k = sin(Double.pi * cutoffHz / Double(sampleRate)) / cos(Double.pi * cutoffHz / Double(sampleRate))
        return [Double.pi / 8, 3 * Double.pi / 8].map { angle in
            let q = 1 / (2 * cos(angle))
            let norm = 1 / (1 + k / q + k * k)
            let (a1, a2) = (2 * (k * k - 1) * norm, (1 - k / q + k * k) * norm)
            return highPass
                ? BiquadCoefficients(b0: norm, b1: -2 * norm, b2: norm, a1: a1, a2: a2)
                : BiquadCoefficients(b0: k * k * norm, b1: 2 * k * k * norm, b2: k * k * norm, a1: a1, a2: a2)
        }
    }
}
