import Foundation

/// Test signals and measurements on sound, shared by the C-library layer's test targets.
public enum Signal {
    /// A sine of `frequencyHz` at peak `amplitude`, `frameCount` frames at `sampleRate`.
    public static func sine(frequencyHz: Double, amplitude: Float, frameCount: Int, sampleRate: Int) -> [Float] {
        (0..<frameCount).map { frame in
            amplitude * Float(sin(2 * Double.pi * frequencyHz * Double(frame) / Double(sampleRate)))
        }
    }

    /// Channels interleaved frame by frame (all the same length).
    public static func interleave(_ channels: [[Float]]) -> [Float] {
        var samples = [Float](repeating: 0, count: channels.count * channels[0].count)
        for (channelIndex, channel) in channels.enumerated() {
            for (frame, sample) in channel.enumerated() { samples[frame * channels.count + channelIndex] = sample }
        }
        return samples
    }

    /// One channel of interleaved samples.
    public static func channel(_ samples: [Float], _ index: Int, of channelCount: Int) -> [Float] {
        stride(from: index, to: samples.count, by: channelCount).map { samples[$0] }
    }

    /// The RMS of `samples` (0 for none).
    public static func rms<Samples: Collection>(_ samples: Samples) -> Double where Samples.Element == Float {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// Where two runs of samples (or bytes) first differ: the index in `a` of the first unequal pair, the
    /// shorter one's length when one is the start of the other, nil when they are equal. Compared here so that a
    /// failure names one place: `#expect(a == b)` of two files of megabytes kept the test library busy on its
    /// report for 15 minutes (3 GB) before it was stopped.
    public static func firstDifference<Values: Collection>(_ a: Values, _ b: Values) -> Int? where Values.Element: Equatable, Values.Index == Int {
        for (index, other) in zip(a.indices, b.indices) where a[index] != b[other] { return index }
        return a.count == b.count ? nil : a.startIndex + min(a.count, b.count)
    }

    /// RMS of `samples[range]`, in dBFS (−∞ for silence).
    public static func rmsDecibels(_ samples: [Float], _ range: Range<Int>) -> Double {
        var energy = 0.0
        for index in range { energy += Double(samples[index]) * Double(samples[index]) }
        return 10 * log10(energy / Double(max(1, range.count)))
    }

    /// The frequency of a periodic signal from its rising zero crossings (interpolated), in Hz.
    public static func frequency(_ samples: [Float], _ range: Range<Int>, sampleRate: Int) -> Double {
        var first = -1.0
        var last = -1.0
        var count = 0
        for index in (range.lowerBound + 1)..<range.upperBound where samples[index - 1] < 0 && samples[index] >= 0 {
            let a = Double(samples[index - 1])
            let b = Double(samples[index])
            let time = Double(index - 1) + a / (a - b)
            if first < 0 { first = time }
            last = time
            count += 1
        }
        guard count > 1 else { return 0 }
        return Double(count - 1) / (last - first) * Double(sampleRate)
    }

    /// The amplitude of the component at `frequencyHz` over `samples[range]` (Goertzel, Hann window).
    public static func amplitude(_ samples: [Float], _ range: Range<Int>, frequencyHz: Double, sampleRate: Int) -> Double {
        var real = 0.0
        var imaginary = 0.0
        var windowSum = 0.0
        let count = Double(range.count)
        for (offset, index) in range.enumerated() {
            let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(offset) / count)
            let angle = 2 * Double.pi * frequencyHz * Double(offset) / Double(sampleRate)
            real += Double(samples[index]) * window * cos(angle)
            imaginary += Double(samples[index]) * window * sin(angle)
            windowSum += window
        }
        return 2 * (real * real + imaginary * imaginary).squareRoot() / windowSum
    }

    /// Power spectrum in `binHz`-wide bins from 0 to Nyquist (Welch: Hann-windowed frames of `sampleRate / binHz`
    /// samples, half overlapping, summed), for band energies.
    public static func powerSpectrum(_ samples: [Float], sampleRate: Int, binHz: Int = 25) -> [Double] {
        let frameLength = sampleRate / binHz
        let binCount = frameLength / 2
        var power = [Double](repeating: 0, count: binCount)
        let window = (0..<frameLength).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(frameLength)) }
        var cosines = [Double](repeating: 0, count: frameLength)
        var sines = [Double](repeating: 0, count: frameLength)
        for index in 0..<frameLength {
            cosines[index] = cos(2 * Double.pi * Double(index) / Double(frameLength))
            sines[index] = sin(2 * Double.pi * Double(index) / Double(frameLength))
        }
        var start = 0
        var frame = [Double](repeating: 0, count: frameLength)
        while start < samples.count {
            for index in 0..<frameLength {
                frame[index] = start + index < samples.count ? Double(samples[start + index]) * window[index] : 0
            }
            for bin in 0..<binCount {
                var real = 0.0
                var imaginary = 0.0
                var phase = 0
                for index in 0..<frameLength {
                    real += frame[index] * cosines[phase]
                    imaginary += frame[index] * sines[phase]
                    phase += bin
                    if phase >= frameLength { phase -= frameLength }
                }
                power[bin] += real * real + imaginary * imaginary
            }
            start += frameLength / 2
        }
        return power
    }

    /// The share (0 ... 1) of a power spectrum's energy between `lowHz` and `highHz`.
    public static func bandShare(_ power: [Double], binHz: Int = 25, lowHz: Int, highHz: Int) -> Double {
        let total = power.reduce(0, +)
        guard total > 0 else { return 0 }
        let band = power.indices.filter { $0 * binHz >= lowHz && $0 * binHz <= highHz }.reduce(0.0) { $0 + power[$1] }
        return band / total
    }

    /// Power-weighted mean frequency of a spectrum, in Hz.
    public static func centroid(_ power: [Double], binHz: Int = 25) -> Double {
        let total = power.reduce(0, +)
        return power.indices.reduce(0.0) { $0 + Double($1 * binHz) * power[$1] } / total
    }
}
