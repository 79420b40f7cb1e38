import Foundation
import HeartRhythm
import HeartRhythmTestSupport
import Testing

/// The verdict's confidence against records from HeartRhythmTestSupport's model: records with no resonance
/// (the same swing at every pace) rarely called clear, records of another breathing given no verdict at all.
@Suite("Resonance verdict calibration")
struct VerdictCalibrationTests {
    static let rates = [6.5, 6.0, 5.5, 5.0, 4.5]

    static func analyze(_ heart: SyntheticHeart) throws -> ResonanceReport {
        try ResonanceAnalysis(breathing: heart.breathing, start: .secondsIntoRecord(heart.leadSeconds))
            .analyze(RRRecord(intervalsMilliseconds: heart.record().intervals, formatDescription: "synthetic"))
    }

    @Test("no resonance (the same swing at every pace): at most 1 in 10 called clear, quiet or wandering heart")
    func noResonanceRarelyClear() throws {
        let breathing = try SyntheticHeart.breathing()
        for wandering in [false, true] {
            var clear: [String] = []
            for seed in UInt64(1)...10 {
                var heart = SyntheticHeart(breathing: breathing, resonantRate: 5.5, seed: seed &* 131 &+ (wandering ? 5 : 0))
                heart.resonantAmplitude = heart.floorAmplitude
                if wandering {
                    heart.wanderHeartRate = 2
                    heart.noiseHeartRate = 2.5
                }
                let report = try Self.analyze(heart)
                if report.decision.clear { clear.append("seed \(seed): \(report.verdict)") }
                // Never more than "likely" without a t statistic to back it.
                if report.decision.clear { #expect((report.decision.tStatistic ?? 0) >= ResonanceVerdict.clearTStatistic) }
            }
            #expect(clear.count <= 1, "wandering \(wandering): \(clear)")
        }
    }

    @Test("a modest resonance (swing 5 against 2.5 bpm, a wandering heart): the right step, never a clear wrong one")
    func modestResonance() throws {
        let breathing = try SyntheticHeart.breathing()
        var right = 0, clearWrong: [String] = []
        for (slot, rate) in Self.rates.enumerated() {
            for seed in UInt64(1)...2 {
                var heart = SyntheticHeart(breathing: breathing, resonantRate: rate, seed: seed &* 977 &+ UInt64(slot))
                heart.resonantAmplitude = 5
                heart.wanderHeartRate = 1.5
                heart.noiseHeartRate = 2
                let report = try Self.analyze(heart)
                let chosen = report.bestIndex.map { report.steps[$0].breathsPerMinute }
                if chosen == rate { right += 1 } else if report.decision.clear { clearWrong.append("\(rate): \(report.verdict)") }
            }
        }
        #expect(right >= 8, "right step in \(right) of 10")
        #expect(clearWrong.isEmpty, "\(clearWrong)")
    }

    @Test("a record of another breathing gets no verdict, and says why", arguments: [
        SyntheticHeart.Breathed.constant(6), .constant(3.75), .spontaneous(14), .reversed,
    ])
    func otherBreathingNoVerdict(breathed: SyntheticHeart.Breathed) throws {
        let breathing = try SyntheticHeart.breathing()
        for seed in UInt64(1)...3 {
            var heart = SyntheticHeart(breathing: breathing, resonantRate: 5.5, seed: seed &* 61)
            heart.breathed = breathed
            let report = try Self.analyze(heart)
            #expect(report.bestIndex == nil, "\(breathed), seed \(seed): \(report.verdict); peaks \(report.steps.map { $0.peakFrequencyHz * 60 })")
            #expect(report.decision.reason?.isEmpty == false)
            #expect(report.verdict.hasPrefix("no verdict: "))
        }
    }
}
