import NagiMath

/// Decibel arithmetic.
enum Decibels {
    /// The amplitude factor of `decibels` dB: 10^(dB/20).
    @inline(__always)
    static func gain(_ decibels: Double) -> Double { exp(decibels * 0.115_129_254_649_702_28) }  // ln 10 / 20

    /// The decibels of an amplitude factor; −∞ for 0.
    static func decibels(_ gain: Double) -> Double { 20 * log10(gain) }
}
