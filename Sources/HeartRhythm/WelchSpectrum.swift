import NagiMath

/// The power spectral density of an evenly sampled series by Welch's method: Hann-windowed segments, each
/// with its mean removed, zero-padded to `transformSize`, one-sided, averaged. The segments cover the whole
/// series: their count is chosen so that each is near `segmentLength` samples and neighbours overlap by about
/// half, the first starting at the first sample and the last ending at the last (`plan`). Each segment's
/// periodogram is `scipy.signal.periodogram(x, fs, window="hann", nfft, detrend="constant", scaling="density")`.
public struct WelchSpectrum: Sendable {
    /// Frequencies of the bins, in Hz (0 to half the sampling rate).
    public let frequenciesHz: [Double]
    /// Density at each bin, in the series' unit squared per Hz (ms²/Hz for RR in ms).
    public let density: [Double]

    /// The usual segment: 60 s at 4 Hz (shorter series use one segment of their own length).
    public static let segmentLength = 240
    /// Zero-padded length, for a fine frequency grid (4 Hz / 1024 ≈ 0.004 Hz).
    public static let transformSize = 1024

    /// The spectrum of `samples` taken at `sampleRateHz`, every sample in at least one segment.
    public init(samples: [Double], sampleRateHz: Double, segmentLength: Int = WelchSpectrum.segmentLength, transformSize: Int = WelchSpectrum.transformSize) {
        let plan = Self.plan(sampleCount: samples.count, segmentLength: segmentLength)
        let length = plan.length
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
        let fourier = FourierTransform(size: size)
        var real = [Double](repeating: 0, count: size)
        var imaginary = [Double](repeating: 0, count: size)
        for start in plan.starts {
            var mean = 0.0
            for index in 0..<length { mean += samples[start + index] }
            mean /= Double(length)
            for index in 0..<size {
                real[index] = index < length ? (samples[start + index] - mean) * window[index] : 0
                imaginary[index] = 0
            }
            fourier.transform(real: &real, imaginary: &imaginary)
            for bin in 0..<binCount { sum[bin] += real[bin] * real[bin] + imaginary[bin] * imaginary[bin] }
        }
        let scale = 1 / (sampleRateHz * windowPower * Double(plan.starts.count))
        for bin in 0..<binCount {
            // One-sided: every bin but DC and Nyquist stands for its negative twin too.
            sum[bin] *= scale * (bin == 0 || bin == binCount - 1 ? 1 : 2)
        }
        frequenciesHz = (0..<binCount).map { Double($0) * sampleRateHz / Double(size) }
        density = sum
    }

    /// The segments for `sampleCount` samples: K segments of `length` samples overlapping by about half, with
    /// length · (K + 1) / 2 ≈ `sampleCount` and K the count that brings `length` nearest `segmentLength`; the
    /// first starts at 0 and the last ends at `sampleCount`, so no sample is left out (fixed-step Welch drops
    /// the remainder, up to half a segment). A series shorter than `segmentLength` is one segment.
    public static func plan(sampleCount: Int, segmentLength: Int = WelchSpectrum.segmentLength) -> (length: Int, starts: [Int]) {
        guard sampleCount > segmentLength, segmentLength > 1 else { return (sampleCount, sampleCount > 0 ? [0] : []) }
        let count = max(1, Int((2 * Double(sampleCount) / Double(segmentLength) - 1).rounded()))
        guard count > 1 else { return (sampleCount, [0]) }
        let length = 2 * sampleCount / (count + 1)
        let room = Double(sampleCount - length)
        let starts = (0..<count).map { Int((Double($0) * room / Double(count - 1)).rounded()) }
        return (length, starts)
    }

    /// Power within `band` (Hz): the densities of the bins inside it times the bin width.
    public func power(in band: ClosedRange<Double>) -> Double {
        guard frequenciesHz.count > 1 else { return 0 }
        let width = frequenciesHz[1] - frequenciesHz[0]
        var total = 0.0
        for (bin, frequency) in frequenciesHz.enumerated() where band.contains(frequency) { total += density[bin] }
        return total * width
    }

    /// The frequency of the largest density inside `band`, in Hz, and that density. The frequency is refined
    /// between bins by the parabola through the largest bin and its neighbours (a fraction of a bin either way).
    public func peak(in band: ClosedRange<Double>) -> (frequencyHz: Double, density: Double) {
        var best = (frequencyHz: band.lowerBound, density: 0.0)
        var bestBin: Int?
        for (bin, frequency) in frequenciesHz.enumerated() where band.contains(frequency) && density[bin] > best.density {
            best = (frequency, density[bin])
            bestBin = bin
        }
        if let bin = bestBin, bin > 0, bin + 1 < density.count, frequenciesHz.count > 1 {
            let (left, middle, right) = (density[bin - 1], density[bin], density[bin + 1])
            let curvature = left - 2 * middle + right
            if curvature < 0 {
                let shift = max(-0.5, min(0.5, 0.5 * (left - right) / curvature))
                best.frequencyHz += shift * (frequenciesHz[1] - frequenciesHz[0])
            }
        }
        return best
    }

    static func powerOfTwo(atLeast count: Int) -> Int {
        var size = 1
        while size < count { size *= 2 }
        return size
    }
}
