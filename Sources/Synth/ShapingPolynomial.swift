/// A harmonic spectrum turned into a polynomial of cos θ (Chebyshev: cos kθ = T_k(cos θ)), so one cosine
/// per sample yields every harmonic: the tone's "wavetable" is these few coefficients, built once per render.
enum ShapingPolynomial {
    /// Power-basis coefficients c₀…c_degree of Σ amplitudes[k−1]·T_k(x), dropping harmonics at or above
    /// `nyquistLimitHz` for a fundamental reaching `highestFundamentalHz` (no aliasing at low sample rates).
    static func coefficients(harmonics: [Double], degree: Int, highestFundamentalHz: Double, nyquistLimitHz: Double) -> [Double] {
        var result = [Double](repeating: 0, count: degree + 1)
        var previous = [Double](repeating: 0, count: degree + 1)  // T_{k−1}
        var current = [Double](repeating: 0, count: degree + 1)   // T_k
        previous[0] = 1
        current[1] = 1
        for k in 1...degree {
            let amplitude = k <= harmonics.count ? harmonics[k - 1] : 0
            if amplitude != 0 && Double(k) * highestFundamentalHz < nyquistLimitHz {
                for j in 0...degree { result[j] += amplitude * current[j] }
            }
            // T_{k+1} = 2x·T_k − T_{k−1}
            var next = [Double](repeating: 0, count: degree + 1)
            for j in 0...degree {
                if j + 1 <= degree { next[j + 1] += 2 * current[j] }
                next[j] -= previous[j]
            }
            previous = current
            current = next
        }
        return result
    }

    /// The largest |Σ amplitudes·cos kθ| can reach: Σ |amplitudes| (for the gain budget).
    static func bound(harmonics: [Double]) -> Double { harmonics.reduce(0) { $0 + abs($1) } }
}
