import NagiMath

/// The power spectral density of an evenly sampled series by Welch's method: Hann-windowed segments
/// overlapping by half, each with its mean removed, zero-padded to `transformSize`, one-sided, averaged.
/// The same definition as `scipy.signal.welch(x, fs, window="hann", nperseg, noverlap=nperseg//2, nfft,
/// detrend="constant", scaling="density")`.
public struct WelchSpectrum: Sendable {
    /// Frequencies of the bins, in Hz (0 to half the sampling rate).
    public let frequenciesHz: [Double]
    /// Density at each bin, in the series' unit squared per Hz (ms²/Hz for RR in ms).
    public let density: [Double]

    /// The usual segment: 60 s at 4 Hz (shorter series use one segment of their own length).
    public static let segmentLength = 240
    /// Zero-padded length, for a fine frequency grid (4 Hz / 1024 ≈ 0.004 Hz).
    public static let transformSize = 1024

    /// The spectrum of `samples` taken at `sampleRateHz`.
    public init(samples: [Double], sampleRateHz: Double, segmentLength: Int = WelchSpectrum.segmentLength, transformSize: Int = WelchSpectrum.transformSize) {
        let length = min(segmentLength, samples.count)
        let size = max(transformSize, Self.powerOfTwo(atLeast: length))
        let binCount = size / 2 + 1
        var sum = [Double](repeating: 0, count: binCount)
        guard length >= 2 else {
            frequenciesHz = (0..<binCount).map { Double($0) * sampleRateHz / Double(size) }
            density = sum
            return
        }
        let window = (0..<length).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(length)) }
        let windowPower = window.reduce(0) { $0 + $1 * $1 }
        let step = length - length / 2
        let fourier = FourierTransform(size: size)
        var real = [Double](repeating: 0, count: size)
        var imaginary = [Double](repeating: 0, count: size)
        var segmentCount = 0
        var start = 0
        while start + length <= samples.count {
            var mean = 0.0
            for index in 0..<length { mean += samples[start + index] }
            mean /= Double(length)
            for index in 0..<size {
                real[index] = index < length ? (samples[start + index] - mean) * window[index] : 0
                imaginary[index] = 0
            }
            fourier.transform(real: &real, imaginary: &imaginary)
            for bin in 0..<binCount { sum[bin] += real[bin] * real[bin] + imaginary[bin] * imaginary[bin] }
            segmentCount += 1
            start += step
        }
        let scale = 1 / (sampleRateHz * windowPower * Double(segmentCount))
        for bin in 0..<binCount {
            // One-sided: every bin but DC and Nyquist stands for its negative twin too.
            sum[bin] *= scale * (bin == 0 || bin == binCount - 1 ? 1 : 2)
        }
        frequenciesHz = (0..<binCount).map { Double($0) * sampleRateHz / Double(size) }
        density = sum
    }

    /// Power within `band` (Hz): the densities of the bins inside it times the bin width.
    public func power(in band: ClosedRange<Double>) -> Double {
        guard frequenciesHz.count > 1 else { return 0 }
        let width = frequenciesHz[1] - frequenciesHz[0]
        var total = 0.0
        for (bin, frequency) in frequenciesHz.enumerated() where band.contains(frequency) { total += density[bin] }
        return total * width
    }

    /// The frequency of the largest density inside `band`, in Hz, and that density.
    public func peak(in band: ClosedRange<Double>) -> (frequencyHz: Double, density: Double) {
        var best = (frequencyHz: band.lowerBound, density: 0.0)
        for (bin, frequency) in frequenciesHz.enumerated() where band.contains(frequency) && density[bin] > best.density {
            best = (frequency, density[bin])
        }
        return best
    }

    static func powerOfTwo(atLeast count: Int) -> Int {
        var size = 1
        while size < count { size *= 2 }
        return size
    }
}
