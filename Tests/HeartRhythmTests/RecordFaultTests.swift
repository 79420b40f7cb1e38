import Foundation
import HeartRhythm
import HeartRhythmTestSupport
import Testing

/// Faults of a real record: beats lost (a gap in the timestamps), artefacts bunched in one step, ectopic beats;
/// the step affected is reported and left out, and no clear verdict rests on it.
@Suite("Gaps, bunched artefacts and ectopic beats")
struct RecordFaultTests {
    static let clock = ClockTime(wallSeconds: 0, zoneOffsetSeconds: nil, hasDate: false)

    @Test("a 20 s dropout inside the resonant step: the step is left out with the gap named, no clear verdict on another")
    func gapLeavesStepOut() throws {
        let breathing = try SyntheticHeart.breathing()
        let heart = SyntheticHeart(breathing: breathing, resonantRate: 5.5, seed: 808)
        let step = breathing.steps[2]
        let from = heart.leadSeconds + step.startSeconds + 60
        let text = heart.polarText(startClock: try #require(ClockTime.parse("2026-12-02T07:29:00.000")), dropping: from..<(from + 20))
        let record = try RRParser.parse(Array(text.utf8), name: "rr.csv")
        #expect(record.beatSeconds != nil)
        let report = try ResonanceAnalysis(breathing: breathing, start: .secondsIntoRecord(heart.leadSeconds)).analyze(record)
        let left = try #require(report.steps[2].excludedReason)
        #expect(left.hasPrefix("a gap of 2"), "\(left)")
        #expect(report.notes.contains { $0.hasPrefix("5.5 breaths/min left out: a gap of") }, "\(report.notes)")
        #expect(!report.decision.clear, "\(report.verdict)")
        #expect(report.steps.indices.filter { report.steps[$0].excludedReason != nil } == [2])
        // The steps after the gap stay in place: their timing comes from the stamps, not from adding intervals.
        let intact = try ResonanceAnalysis(breathing: breathing, start: .secondsIntoRecord(heart.leadSeconds))
            .analyze(RRRecord(intervalsMilliseconds: heart.record().intervals.map { $0.rounded() }, formatDescription: "synthetic"))
        for index in [3, 4] {
            #expect(abs(report.steps[index].lowFrequencyPower / intact.steps[index].lowFrequencyPower - 1) < 0.02, "\(report.steps[index].label)")
        }
    }

    @Test("20 % of the resonant step's beats corrupted: counted in that step, the step left out, no clear wrong verdict")
    func bunchedArtefacts() throws {
        let breathing = try SyntheticHeart.breathing()
        for seed in UInt64(1)...3 {
            let heart = SyntheticHeart(breathing: breathing, resonantRate: 5, seed: seed &* 313)
            var intervals = heart.record().intervals
            let step = breathing.steps[3]
            var elapsed = 0.0
            var inStep: [Int] = []
            for index in intervals.indices {
                elapsed += intervals[index] / 1000
                if elapsed > heart.leadSeconds + step.startSeconds + 30, elapsed < heart.leadSeconds + step.endSeconds { inStep.append(index) }
            }
            // Every fifth beat split in two by a double-counted beat (the halves keep the time).
            var corrupted: [Double] = []
            for index in intervals.indices {
                if inStep.contains(index), (index - (inStep.first ?? 0)) % 5 == 2 {
                    corrupted += [intervals[index] * 0.45, intervals[index] * 0.55]
                } else {
                    corrupted.append(intervals[index])
                }
            }
            intervals = corrupted
            let report = try ResonanceAnalysis(breathing: breathing, start: .secondsIntoRecord(heart.leadSeconds))
                .analyze(RRRecord(intervalsMilliseconds: intervals, formatDescription: "synthetic"))
            let reason = try #require(report.steps[3].excludedReason, "seed \(seed): \(report.steps[3].artefactCount) of \(report.steps[3].beatCount)")
            #expect(reason.contains("are artefacts"))
            #expect(report.steps[3].artefactCount * 100 >= report.steps[3].beatCount * 20, "seed \(seed)")
            #expect(report.steps.filter { $0.excludedReason == nil }.allSatisfy { $0.artefactCount * 3 < report.steps[3].artefactCount }, "seed \(seed): \(report.steps.map { "\($0.artefactCount)/\($0.beatCount)" })")
            if let best = report.bestIndex, report.steps[best].breathsPerMinute != 5 {
                #expect(!report.decision.clear, "seed \(seed): \(report.verdict)")
            }
        }
    }

    @Test("an ectopic beat within 25 % of the median and its compensatory pause: both corrected to half their sum")
    func ectopicPair() {
        var intervals = [Double](repeating: 900, count: 40)
        for index in intervals.indices { intervals[index] += 40 * sin(Double(index) / 2) }
        // Premature 20 % early, compensatory 30 % late: only the second passes the 25 % threshold.
        intervals[20] = 0.8 * 900
        intervals[21] = 1.3 * 900
        let normal = intervals[20] + intervals[21]
        let result = ArtefactCleaner().clean(intervals)
        #expect(result.artefactIndices == [20, 21])
        #expect(abs(result.intervalsMilliseconds[20] - normal / 2) < 1e-9)
        #expect(abs(result.intervalsMilliseconds[21] - normal / 2) < 1e-9)
        // A missed beat (one interval twice as long) is still interpolated.
        var missed = [Double](repeating: 900, count: 40)
        missed[10] = 1800
        #expect(ArtefactCleaner().clean(missed).intervalsMilliseconds[10] == 900)
    }

    @Test("RMSSD and SDNN per step from the corrected intervals of the beats in its window")
    func variabilityPerStep() throws {
        let breathing = try SyntheticHeart.breathing()
        var heart = SyntheticHeart(breathing: breathing, resonantRate: 5.5, seed: 5150)
        heart.ectopicChance = 0
        let intervals = heart.record().intervals
        let report = try ResonanceAnalysis(breathing: breathing, start: .secondsIntoRecord(heart.leadSeconds))
            .analyze(RRRecord(intervalsMilliseconds: intervals, formatDescription: "synthetic"))
        var ends: [Double] = []
        var elapsed = 0.0
        for interval in intervals {
            elapsed += interval / 1000
            ends.append(elapsed)
        }
        for step in report.steps {
            let values = intervals.indices.filter { ends[$0] > heart.leadSeconds + step.startSeconds && ends[$0] <= heart.leadSeconds + step.endSeconds }.map { intervals[$0] }
            let mean = values.reduce(0, +) / Double(values.count)
            let sdnn = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
            let rmssd = (zip(values, values.dropFirst()).map { ($1 - $0) * ($1 - $0) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
            #expect(step.beatCount == values.count)
            #expect(abs(step.sdnnMilliseconds - sdnn) < 1e-6 && abs(step.rmssdMilliseconds - rmssd) < 1e-6, "\(step.label)")
        }
        // The resonant step swings most: its SDNN is the largest.
        #expect(report.steps.max { $0.sdnnMilliseconds < $1.sdnnMilliseconds }?.breathsPerMinute == 5.5)
    }
}
