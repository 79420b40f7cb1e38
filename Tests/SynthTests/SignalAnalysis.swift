import Foundation

/// Measurements on rendered sound.
enum SignalAnalysis {
    /// One channel of interleaved samples.
    static func channel(_ samples: [Float], _ index: Int, of channels: Int) -> [Float] {
        stride(from: index, to: samples.count, by: channels).map { samples[$0] }
    }

    /// RMS of `samples[range]`, in dBFS (−∞ for silence).
    static func rmsDecibels(_ samples: [Float], _ range: Range<Int>) -> Double {
        var energy = 0.0
        for index in range { energy += Double(samples[index]) * Double(samples[index]) }
        return 10 * log10(energy / Double(max(1, range.count)))
    }

    /// The frequency of a periodic signal from its rising zero crossings (interpolated between samples),
    /// in Hz: (crossings − 1) periods over the time between the first and the last.
    static func frequency(_ samples: [Float], _ range: Range<Int>, sampleRate: Int) -> Double {
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
    static func amplitude(_ samples: [Float], _ range: Range<Int>, frequencyHz: Double, sampleRate: Int) -> Double {
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
