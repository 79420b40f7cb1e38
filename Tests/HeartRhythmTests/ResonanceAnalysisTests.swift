import Foundation
import HeartRhythm
import HeartRhythmTestSupport
import NagiTestSupport
import Testing

/// The analysis on synthetic records with a known resonant rate: the right step, the artefacts, the offset.
@Suite("Resonance analysis of synthetic heart-rate records")
struct ResonanceAnalysisTests {
    static let rates = [6.5, 6.0, 5.5, 5.0, 4.5]

    @Test("with the resonance at each of the five rates in turn, the given start picks that step, for three noise seeds", arguments: rates)
    func picksResonantStep(rate: Double) throws {
        let breathing = try SyntheticHeart.breathing()
        for seed in [UInt64(1), 2, 3] {
            let heart = SyntheticHeart(breathing: breathing, resonantRate: rate, seed: seed &* 7919 &+ UInt64(rate * 10))
            let (intervals, _) = heart.record()
            let report = try ResonanceAnalysis(breathing: breathing, start: .secondsIntoRecord(heart.leadSeconds))
                .analyze(RRRecord(intervalsMilliseconds: intervals, formatDescription: "synthetic"))
            let best = report.steps[try #require(report.bestIndex, "no verdict: \(report.verdict)")]
            #expect(best.breathsPerMinute == rate, "seed \(seed): chose \(best.breathsPerMinute) (scores \(report.steps.map(\.score)))")
            #expect(report.steps.count == 5)
            // The swing at resonance is 2 × 8 bpm less what the breath's own shape and noise take: far above the others'.
            #expect(best.peakToTrough > 12, "peak-to-trough \(best.peakToTrough)")
            #expect(abs(best.phaseDegrees) < 20, "phase at resonance \(best.phaseDegrees)°")
            #expect(abs(best.peakFrequencyHz - rate / 60) < 0.006, "LF peak \(best.peakFrequencyHz) Hz for \(rate / 60) Hz breathing")
            #expect(abs(best.meanHeartRate - 66) < 2)
        }
    }

    @Test("--align auto finds the session's start within 2 s, at each resonant rate", arguments: rates)
    func alignsAutomatically(rate: Double) throws {
        let breathing = try SyntheticHeart.breathing()
        var heart = SyntheticHeart(breathing: breathing, resonantRate: rate, seed: 41 &+ UInt64(rate * 10))
        heart.leadSeconds = 50 + rate * 13
        let (intervals, _) = heart.record()
        let report = try ResonanceAnalysis(breathing: breathing, start: .automatic)
            .analyze(RRRecord(intervalsMilliseconds: intervals, formatDescription: "synthetic"))
        #expect(abs(report.offsetSeconds - heart.leadSeconds) <= 2, "found \(report.offsetSeconds) s, truth \(heart.leadSeconds) s")
        guard case let .found(alignment) = report.placement else {
            Issue.record("the placement is not a found one")
            return
        }
        #expect(alignment.correlation > alignment.runnerUpCorrelation)
        #expect(report.bestIndex.map { report.steps[$0].breathsPerMinute } == rate, "\(report.verdict)")
    }

    @Test("ectopic beats are found, counted and replaced; a record of more than 20 % artefacts is refused")
    func countsArtefacts() throws {
        let breathing = try SyntheticHeart.breathing()
        var heart = SyntheticHeart(breathing: breathing, resonantRate: 5.5, seed: 99)
        heart.ectopicChance = 0.02
        var (intervals, ectopics) = heart.record()
        // Two out-of-range values too: a double-counted beat and a missed one.
        intervals[200] = 250
        intervals[400] = 2400
        let expected = Set(ectopics + [200, 400])
        let cleaned = ArtefactCleaner().clean(intervals)
        #expect(ectopics.count >= 20)
        #expect(Set(cleaned.artefactIndices) == expected, "missed \(expected.subtracting(cleaned.artefactIndices).sorted()), extra \(Set(cleaned.artefactIndices).subtracting(expected).sorted())")
        for index in expected {
            #expect((700...1100).contains(cleaned.intervalsMilliseconds[index]), "replaced \(index) by \(cleaned.intervalsMilliseconds[index])")
        }
        let report = try ResonanceAnalysis(breathing: breathing, start: .secondsIntoRecord(heart.leadSeconds))
            .analyze(RRRecord(intervalsMilliseconds: intervals, formatDescription: "synthetic"))
        #expect(report.artefactCount == expected.count)
        #expect(report.bestIndex.map { report.steps[$0].breathsPerMinute } == 5.5, "\(report.verdict)")

        var damaged = intervals
        for index in stride(from: 0, to: damaged.count, by: 4) { damaged[index] = 150 }
        #expect {
            try ResonanceAnalysis(breathing: breathing, start: .automatic).analyze(RRRecord(intervalsMilliseconds: damaged, formatDescription: "synthetic"))
        } throws: { error in
            (error as? HeartRhythmError)?.message.contains("are artefacts, more than 20 %") == true
        }
    }

    @Test("a record too short, or one the session does not overlap, is refused with one line saying which")
    func refusesShortAndDisjointRecords() throws {
        let breathing = try SyntheticHeart.breathing()
        let short = RRRecord(intervalsMilliseconds: Array(repeating: 900, count: 40), formatDescription: "synthetic")
        let disjoint = RRRecord(intervalsMilliseconds: Array(repeating: 900, count: 1000), formatDescription: "synthetic")
        func message(_ record: RRRecord, _ start: ResonanceAnalysis.Start) -> String? {
            do {
                _ = try ResonanceAnalysis(breathing: breathing, start: start).analyze(record)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(message(short, .automatic)?.hasPrefix("the record is too short: 40 beats") == true)
        // One beat is "1 beat" (issue 46, defect 15).
        let single = RRRecord(intervalsMilliseconds: [900], formatDescription: "synthetic")
        #expect(message(single, .automatic)?.hasPrefix("the record is too short: 1 beat over") == true)
        #expect(message(disjoint, .secondsIntoRecord(2000))?.contains("does not overlap the session") == true)
        #expect(message(disjoint, .secondsIntoRecord(600))?.contains("covers only") == true)
        #expect(message(RRRecord(intervalsMilliseconds: Array(repeating: 900, count: 400), formatDescription: "synthetic"), .automatic)?.contains("shorter than the session") == true)
        #expect(message(disjoint, .automatic)?.contains("does not follow the paced breathing") == true)
        #expect(message(disjoint, .clock(ClockTime(wallSeconds: 0, zoneOffsetSeconds: nil, hasDate: true)))?.contains("no timestamps") == true)
    }
}
