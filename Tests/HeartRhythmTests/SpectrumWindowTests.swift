import Foundation
import HeartRhythm
import HeartRhythmTestSupport
import Testing

/// Every step's spectrum covers the whole step window: checked against a reference written here from the
/// definition (a direct DFT, not the FFT), by changing the window's last seconds, and by moving the start 1 ms.
@Suite("The whole step window in the spectrum")
struct SpectrumWindowTests {
    static func record(seed: UInt64 = 2027) throws -> (SyntheticHeart, [Double]) {
        let breathing = try SyntheticHeart.breathing()
        var heart = SyntheticHeart(breathing: breathing, resonantRate: 5.5, seed: seed)
        heart.ectopicChance = 0
        return (heart, heart.record().intervals)
    }

    static func analyze(_ intervals: [Double], start: Double, breathing: PacedBreathing) throws -> ResonanceReport {
        try ResonanceAnalysis(breathing: breathing, start: .secondsIntoRecord(start))
            .analyze(RRRecord(intervalsMilliseconds: intervals, formatDescription: "synthetic"))
    }

    /// LF power (ms²) of `samples` at 4 Hz from the definition: two Hann segments of ⌊2N/3⌋ samples, one at each
    /// end of the window (about half overlapping), each mean-removed, |Σ x·w·e^(−2πikn/1024)|² summed directly
    /// at the bins in 0.04–0.15 Hz, scaled to a one-sided density and averaged.
    static func referencePower(_ samples: [Double]) -> Double {
        let count = samples.count
        let length = 2 * count / 3
        let window = (0..<length).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(length)) }
        let windowPower = window.reduce(0) { $0 + $1 * $1 }
        let rate = 4.0, size = 1024.0
        var power = 0.0
        for start in [0, count - length] {
            let segment = Array(samples[start..<(start + length)])
            let mean = segment.reduce(0, +) / Double(length)
            for bin in 0...512 {
                let frequency = Double(bin) * rate / size
                guard frequency >= 0.04, frequency <= 0.15 else { continue }
                var re = 0.0, im = 0.0
                for index in 0..<length {
                    let angle = -2 * Double.pi * Double(bin) * Double(index) / size
                    re += (segment[index] - mean) * window[index] * cos(angle)
                    im += (segment[index] - mean) * window[index] * sin(angle)
                }
                power += 2 * (re * re + im * im) / (rate * windowPower) * (rate / size)
            }
        }
        return power / 2
    }

    @Test("each step's LF power equals a direct-DFT Welch over the whole window (samples at the window's exact times)")
    func matchesDirectReference() throws {
        let (heart, intervals) = try Self.record()
        let report = try Self.analyze(intervals, start: heart.leadSeconds, breathing: heart.breathing)
        var times: [Double] = []
        var elapsed = 0.0
        for interval in intervals {
            elapsed += interval / 1000
            times.append(elapsed)
        }
        let spline = CubicSpline(xs: times, ys: intervals)
        for step in report.steps {
            let count = Int(((step.endSeconds - step.startSeconds) * 4).rounded())
            // Whole breaths of 2 minutes or more less 30 s: 90–103 s, two 60–69 s segments.
            #expect((360...412).contains(count), "\(step.label): \(count) samples")
            let samples = spline.sample(from: heart.leadSeconds + step.startSeconds, step: 0.25, count: count)
            let reference = Self.referencePower(samples)
            #expect(abs(step.lowFrequencyPower - reference) <= 1e-6 * reference, "\(step.label): \(step.lowFrequencyPower) ms², reference \(reference) ms²")
        }
    }

    @Test("Welch's segments start at the window's first sample and end at its last, about half overlapping")
    func planCoversWindow() {
        for count in [100, 240, 300, 359, 360, 412, 600, 1000, 4801] {
            let plan = WelchSpectrum.plan(sampleCount: count)
            #expect(plan.starts.first == 0)
            #expect((plan.starts.last ?? 0) + plan.length == count, "\(count) samples: \(plan)")
            for (a, b) in zip(plan.starts, plan.starts.dropFirst()) {
                let overlap = Double(plan.length - (b - a)) / Double(plan.length)
                #expect(overlap >= 0.4 && overlap <= 0.6, "\(count) samples: overlap \(overlap)")
            }
            #expect(count <= 240 ? plan.length == count : abs(plan.length - 240) <= 80, "\(count): segment \(plan.length)")
        }
    }

    @Test("a swing added to only the last 25 s of a step's window changes that step's LF power")
    func lastSecondsCount() throws {
        let (heart, intervals) = try Self.record()
        let report = try Self.analyze(intervals, start: heart.leadSeconds, breathing: heart.breathing)
        let step = report.steps[1]
        let from = heart.leadSeconds + step.endSeconds - 25, to = heart.leadSeconds + step.endSeconds
        var changed = intervals
        var elapsed = 0.0
        for index in changed.indices {
            elapsed += intervals[index] / 1000
            if elapsed > from, elapsed < to { changed[index] += 80 * sin(2 * Double.pi * 0.06 * elapsed) }
        }
        let after = try Self.analyze(changed, start: heart.leadSeconds, breathing: heart.breathing)
        let ratio = after.steps[1].lowFrequencyPower / step.lowFrequencyPower
        #expect(ratio > 1.2, "LF power \(step.lowFrequencyPower) → \(after.steps[1].lowFrequencyPower) ms²")
        // The step before is untouched.
        #expect(abs(after.steps[0].lowFrequencyPower / report.steps[0].lowFrequencyPower - 1) < 1e-9)
    }

    @Test("moving --start by 1 ms moves no step's LF power by 2 % or more, at starts whose shift crosses a 4 Hz sample")
    func millisecondShift() throws {
        let (heart, intervals) = try Self.record(seed: 44)
        // 37.2495 + 30 s settling is 268.998 samples: the shift crosses the grid at the first step's window start.
        for start in [heart.leadSeconds, 37.2495, 37.2505 - 0.001, 44.0] {
            let before = try Self.analyze(intervals, start: start, breathing: heart.breathing)
            let after = try Self.analyze(intervals, start: start + 0.001, breathing: heart.breathing)
            for (a, b) in zip(before.steps, after.steps) {
                let change = abs(b.lowFrequencyPower - a.lowFrequencyPower) / a.lowFrequencyPower
                #expect(change < 0.02, "\(a.label) at \(start) s: \(a.lowFrequencyPower) → \(b.lowFrequencyPower) ms²")
            }
        }
    }
}
