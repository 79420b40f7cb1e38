import NagiMath

/// Makes a spoken phrase carry in the speech band over the tone and the beds, before the renderer scales it
/// to the soundscape's clip level by its peak.
///
/// flite's voices put much of their energy at the fundamental (150-300 Hz), where the tone sits, and their
/// peaks stand 15-20 dB over their average: normalised by the peak, the words came out no louder than the
/// mix in 300-3400 Hz. A high-pass at `highPassHz` removes what the tone masks anyway, and a gain rider
/// brings every syllable's peak level to within `rangeDecibels` of the loudest, so that, at the same peak,
/// the speech band carries 6-7 dB more energy. Offline, once per phrase: not a hot loop.
public enum SpeechPresence {
    /// The high-pass corner, Hz (second-order Butterworth).
    public static let highPassHz = 250.0
    /// Syllables quieter than the loudest by more than this are left as they are; louder ones are levelled to it.
    public static let rangeDecibels = 18.0
    /// Half the window over which a peak counts, seconds.
    static let peakWindowSeconds = 0.005
    /// How fast the rider lets go of a peak on either side, seconds (time constant).
    static let releaseSeconds = 0.040

    /// `samples` (mono, at `sampleRate`) high-passed and levelled; the first sample stays the first.
    public static func prepared(_ samples: [Float], sampleRate: Int) -> [Float] {
        guard samples.count > 2 else { return samples }
        let rate = Double(sampleRate)
        let filtered = highPassed(samples, rate: rate)
        let count = filtered.count
        // The peak within ±window of each sample (a running maximum over blocks of the window's length).
        let window = max(1, Int(peakWindowSeconds * rate))
        var blockPeaks = [Double](repeating: 0, count: count / window + 1)
        for index in 0..<count {
            blockPeaks[index / window] = max(blockPeaks[index / window], abs(filtered[index]))
        }
        var envelope = [Double](repeating: 0, count: count)
        for index in 0..<count {
            let block = index / window
            var peak = blockPeaks[block]
            if block > 0 { peak = max(peak, blockPeaks[block - 1]) }
            if block + 1 < blockPeaks.count { peak = max(peak, blockPeaks[block + 1]) }
            envelope[index] = peak
        }
        // Let go slowly in both directions, so the gain never moves faster than a syllable.
        let release = exp(-1 / (releaseSeconds * rate))
        for index in 1..<count { envelope[index] = max(envelope[index], release * envelope[index - 1]) }
        for index in stride(from: count - 2, through: 0, by: -1) { envelope[index] = max(envelope[index], release * envelope[index + 1]) }
        let loudest = envelope.max() ?? 0
        guard loudest > 0 else { return samples }
        let ceiling = loudest * pow(10, -rangeDecibels / 20)
        var output = [Float](repeating: 0, count: count)
        for index in 0..<count {
            let gain = envelope[index] > ceiling ? ceiling / envelope[index] : 1
            output[index] = Float(filtered[index] * gain)
        }
        return output
    }

    /// A second-order Butterworth high-pass (RBJ biquad, direct form I) at `highPassHz`.
    private static func highPassed(_ samples: [Float], rate: Double) -> [Double] {
        let omega = 2 * Double.pi * min(highPassHz, 0.45 * rate) / rate
        // Q = 1/√2: alpha = sin(ω) / (2Q).
        let alpha = sin(omega) / 2.0.squareRoot()
        let cosine = cos(omega)
        let a0 = 1 + alpha
        let b0 = (1 + cosine) / 2 / a0, b1 = -(1 + cosine) / a0, b2 = (1 + cosine) / 2 / a0
        let a1 = -2 * cosine / a0, a2 = (1 - alpha) / a0
        var output = [Double](repeating: 0, count: samples.count)
        var (x1, x2, y1, y2) = (0.0, 0.0, 0.0, 0.0)
        for index in samples.indices {
            let x0 = Double(samples[index])
            let y0 = b0 * x0 + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
            output[index] = y0
            (x2, x1, y2, y1) = (x1, x0, y1, y0)
        }
        return output
    }
}
