import Foundation
import HeartRhythm
import HeartRhythmTestSupport
import Testing

/// A strong resonance swings heart rate by 20 bpm at the breathing rate: smooth physiology that the artefact rule
/// must keep, while the ectopic and missed beats placed in it are still corrected, and only those.
@Suite("Strong resonance kept by the adaptive artefact threshold")
struct StrongResonanceTests {
    /// A heart resonant at 6.5 breaths/min swinging about 20 bpm there and 12 bpm at 6.0, no ectopic beats.
    static func heart(seed: UInt64) throws -> SyntheticHeart {
        var heart = SyntheticHeart(breathing: try SyntheticHeart.breathing(), resonantRate: 6.5, seed: seed)
        heart.resonantAmplitude = 10.5
        heart.floorAmplitude = 2.5
        heart.ectopicChance = 0
        return heart
    }

    /// The indices of the intervals whose beats end inside `step`'s analysed window.
    static func indices(in step: StepMetrics, intervals: [Double], lead: Double) -> [Int] {
        var elapsed = 0.0
        var inside: [Int] = []
        for (index, interval) in intervals.enumerated() {
            elapsed += interval / 1000
            if elapsed > lead + step.startSeconds, elapsed <= lead + step.endSeconds { inside.append(index) }
        }
        return inside
    }

    @Test("the resonant step swinging ≥ 18 bpm is kept and chosen, no beat in it replaced", arguments: [UInt64(65), 650, 6500])
    func keepsStrongSwing(seed: UInt64) throws {
        let heart = try Self.heart(seed: seed)
        let intervals = heart.record().intervals
        let report = try ResonanceAnalysis(breathing: heart.breathing, start: .secondsIntoRecord(heart.leadSeconds))
            .analyze(RRRecord(intervalsMilliseconds: intervals, formatDescription: "synthetic"))
        let resonant = report.steps[0], neighbour = report.steps[1]
        print("seed \(seed): swing \(resonant.peakToTrough) vs \(neighbour.peakToTrough) bpm; LF \(resonant.lowFrequencyPower) vs \(neighbour.lowFrequencyPower) ms²; artefacts \(resonant.artefactCount) of \(resonant.beatCount); \(report.verdict); \(report.notes)")
        #expect(resonant.breathsPerMinute == 6.5)
        #expect(resonant.peakToTrough >= 18, "resonant swing \(resonant.peakToTrough)")
        #expect(neighbour.peakToTrough >= 10 && neighbour.peakToTrough <= 15, "neighbour swing \(neighbour.peakToTrough)")
        #expect(resonant.excludedReason == nil, "\(resonant.excludedReason ?? "")")
        #expect(resonant.artefactCount == 0)
        #expect(report.bestIndex == 0, "\(report.verdict)")
        let cleaned = ArtefactCleaner().clean(intervals)
        let window = Set(Self.indices(in: resonant, intervals: intervals, lead: heart.leadSeconds))
        #expect(window.isDisjoint(with: cleaned.artefactIndices), "replaced \(window.intersection(cleaned.artefactIndices).sorted())")
    }

    @Test("three ectopic and two missed beats in the resonant step: exactly those corrected, its LF power within 5 %", arguments: [UInt64(65), 650, 6500])
    func correctsOnlyFaults(seed: UInt64) throws {
        let heart = try Self.heart(seed: seed)
        let truth = heart.record().intervals
        let trueReport = try ResonanceAnalysis(breathing: heart.breathing, start: .secondsIntoRecord(heart.leadSeconds))
            .analyze(RRRecord(intervalsMilliseconds: truth, formatDescription: "synthetic"))
        let window = Self.indices(in: trueReport.steps[0], intervals: truth, lead: heart.leadSeconds)
        try #require(window.count > 80)
        // Faults spread over the window, at peaks, troughs and slopes of the swing alike.
        let places = [10, 25, 40, 55, 70].map { window[0] + $0 }
        var faulty: [Double] = []
        var expected: [Int] = []
        for (index, interval) in truth.enumerated() {
            switch places.firstIndex(of: index) {
            case let fault? where fault < 3:
                // An ectopic beat: premature by 35 %, its compensatory pause the rest of two beats.
                let next = truth[index + 1]
                expected += [faulty.count, faulty.count + 1]
                faulty += [0.65 * interval, next + 0.35 * interval]
            case .some:
                // A missed beat: the strap saw nothing, one interval spans two.
                expected.append(faulty.count)
                faulty.append(interval + truth[index + 1])
            case nil:
                if index > 0, places.contains(index - 1) { continue }
                faulty.append(interval)
            }
        }
        let cleaned = ArtefactCleaner().clean(faulty)
        #expect(cleaned.artefactIndices == expected, "replaced \(cleaned.artefactIndices), faults at \(expected)")
        let report = try ResonanceAnalysis(breathing: heart.breathing, start: .secondsIntoRecord(heart.leadSeconds))
            .analyze(RRRecord(intervalsMilliseconds: faulty, formatDescription: "synthetic"))
        let kept = report.steps[0].lowFrequencyPower, trueValue = trueReport.steps[0].lowFrequencyPower
        print("seed \(seed): LF with faults \(kept), from the true beats \(trueValue) (\((kept / trueValue - 1) * 100) %); \(report.verdict)")
        #expect(abs(kept / trueValue - 1) < 0.05, "LF \(kept) against \(trueValue)")
        #expect(report.bestIndex == 0, "\(report.verdict)")
    }
}
