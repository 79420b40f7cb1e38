import Foundation
import NagiTestSupport

/// Measurements on rendered sound.
enum SignalAnalysis {
    // The measurements the other suites share live in NagiTestSupport's `Signal`; these names keep the
    // Synth suites reading as they did.

    /// One channel of interleaved samples.
    static func channel(_ samples: [Float], _ index: Int, of channels: Int) -> [Float] {
        Signal.channel(samples, index, of: channels)
    }

    /// RMS of `samples[range]`, in dBFS (−∞ for silence).
    static func rmsDecibels(_ samples: [Float], _ range: Range<Int>) -> Double {
        Signal.rmsDecibels(samples, range)
    }

    /// The frequency of a periodic signal from its rising zero crossings (interpolated between samples), in Hz.
    static func frequency(_ samples: [Float], _ range: Range<Int>, sampleRate: Int) -> Double {
        Signal.frequency(samples, range, sampleRate: sampleRate)
    }

    /// The amplitude of the component at `frequencyHz` over `samples[range]` (Goertzel, Hann window).
    static func amplitude(_ samples: [Float], _ range: Range<Int>, frequencyHz: Double, sampleRate: Int) -> Double {
        Signal.amplitude(samples, range, frequencyHz: frequencyHz, sampleRate: sampleRate)
    }

    /// The largest |x[n] − x[n−1]| over `range` (n from range.lowerBound + 1).
    static func largestStep(_ samples: [Float], _ range: Range<Int>) -> Float {
        var largest: Float = 0
        for index in (range.lowerBound + 1)..<range.upperBound {
            largest = max(largest, abs(samples[index] - samples[index - 1]))
        }
        return largest
    }

    /// Frames of a phase as a range, shrunk by `fraction` of its length at both ends.
    static func inner(_ start: Int64, _ end: Int64, trimming fraction: Double) -> Range<Int> {
        let length = Double(end - start)
        return (Int(start) + Int(length * fraction))..<(Int(end) - Int(length * fraction))
    }
}

/// Spectra of rendered sound: a radix-2 FFT (rectangular window, zero-padded) and energy by band.
struct Spectrum {
    /// Energy per bin, |X[k]|², for bins 0…size/2.
    let energy: [Double]
    /// Hz per bin.
    let binHz: Double

    /// The spectrum of `samples[range]` at `sampleRate`; `hann` windows it (for steady tones whose leakage
    /// would otherwise spread far from their partials).
    init(_ samples: [Float], _ range: Range<Int>, sampleRate: Int, hann: Bool = false) {
        var size = 1
        while size < range.count { size *= 2 }
        var real = [Double](repeating: 0, count: size)
        var imaginary = [Double](repeating: 0, count: size)
        let count = Double(range.count)
        for (offset, index) in range.enumerated() {
            let window = hann ? 0.5 - 0.5 * cos(2 * Double.pi * (Double(offset) + 0.5) / count) : 1
            real[offset] = Double(samples[index]) * window
        }
        Self.transform(&real, &imaginary)
        energy = (0...(size / 2)).map { real[$0] * real[$0] + imaginary[$0] * imaginary[$0] }
        binHz = Double(sampleRate) / Double(size)
    }

    /// Energy of the bins whose centre lies in `low..<high` Hz.
    func energy(from low: Double, to high: Double) -> Double {
        let first = max(0, Int((low / binHz).rounded(.up)))
        let last = min(energy.count, Int((high / binHz).rounded(.up)))
        return first < last ? energy[first..<last].reduce(0, +) : 0
    }

    /// Energy of every bin farther than `tolerance` (a fraction, at least `minimumHz`) from each of `partialsHz`.
    func energy(outside partialsHz: [Double], tolerance: Double, minimumHz: Double) -> Double {
        var total = 0.0
        for (bin, value) in energy.enumerated() {
            let frequency = Double(bin) * binHz
            let near = partialsHz.contains { abs(frequency - $0) <= max(minimumHz, tolerance * $0) }
            if !near { total += value }
        }
        return total
    }

    /// The frequency of the strongest bin in `low...high` Hz.
    func peakFrequency(from low: Double, to high: Double) -> Double {
        let first = Int((low / binHz).rounded(.up))
        let last = min(energy.count - 1, Int(high / binHz))
        var best = first
        for bin in first...last where energy[bin] > energy[best] { best = bin }
        return Double(best) * binHz
    }

    /// Third-octave bands (centres 1000·2^(k/3) Hz, edges a sixth of an octave either side) below `limitHz`.
    static func thirdOctaveBands(upTo limitHz: Double) -> [(low: Double, high: Double)] {
        let sixth: Double = pow(2, 1.0 / 6)
        var bands: [(low: Double, high: Double)] = []
        for index in -17...13 {
            let centre: Double = 1000 * pow(2, Double(index) / 3)
            if centre * sixth < limitHz { bands.append((centre / sixth, centre * sixth)) }
        }
        return bands
    }

    /// In-place iterative radix-2 FFT (size a power of two).
    private static func transform(_ real: inout [Double], _ imaginary: inout [Double]) {
        let size = real.count
        var j = 0
        for i in 1..<size {
            var bit = size >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j ^= bit
            if i < j { real.swapAt(i, j); imaginary.swapAt(i, j) }
        }
        var length = 2
        while length <= size {
            let angle = -2 * Double.pi / Double(length)
            let stepReal = cos(angle)
            let stepImaginary = sin(angle)
            var start = 0
            while start < size {
                var wReal = 1.0
                var wImaginary = 0.0
                for k in 0..<(length / 2) {
                    let a = start + k
                    let b = a + length / 2
                    let tReal = real[b] * wReal - imaginary[b] * wImaginary
                    let tImaginary = real[b] * wImaginary + imaginary[b] * wReal
                    real[b] = real[a] - tReal
                    imaginary[b] = imaginary[a] - tImaginary
                    real[a] += tReal
                    imaginary[a] += tImaginary
                    let next = wReal * stepReal - wImaginary * stepImaginary
                    wImaginary = wReal * stepImaginary + wImaginary * stepReal
                    wReal = next
                }
                start += length
            }
            length *= 2
        }
    }
}
