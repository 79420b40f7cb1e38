import Foundation
import HeartRhythm
import HeartRhythmTestSupport
import NagiTestSupport
import Testing

/// The LF power and peak frequency agree with scipy on the same record and windows (welch_check.py).
@Suite("LF power and peak against scipy")
struct SpectrumAgreementTests {
    @Test("every step's LF power and peak frequency are within 0.5 % of scipy on the same whole windows")
    func agreesWithScipy() throws {
        let breathing = try SyntheticHeart.breathing()
        var heart = SyntheticHeart(breathing: breathing, resonantRate: 5.5, seed: 2027)
        heart.ectopicChance = 0
        let (intervals, _) = heart.record()
        let report = try ResonanceAnalysis(breathing: breathing, start: .secondsIntoRecord(heart.leadSeconds))
            .analyze(RRRecord(intervalsMilliseconds: intervals, formatDescription: "synthetic"))
        #expect(report.artefactCount == 0)
        let folder = try TemporaryFolder()
        let path = folder.file("rr.txt")
        try intervals.map { String($0) }.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("welch_check.py").path
        let windows = report.steps.flatMap { [String(heart.leadSeconds + $0.startSeconds), String(heart.leadSeconds + $0.endSeconds)] }
        let (status, output) = try Tool.run("/usr/bin/python3", [script, path] + windows)
        try #require(status == 0, "welch_check.py: \(output)")
        let lines = output.split(separator: "\n")
        try #require(lines.count == report.steps.count, "welch_check.py printed \(output)")
        for (step, line) in zip(report.steps, lines) {
            let fields = line.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
            try #require(fields.count == 2, "welch_check.py printed \(line)")
            #expect(abs(step.lowFrequencyPower - fields[0]) <= 0.005 * fields[0], "\(step.label): LF power \(step.lowFrequencyPower) ms², scipy \(fields[0])")
            #expect(abs(step.peakFrequencyHz - fields[1]) <= 0.05 * fields[1], "\(step.label): peak \(step.peakFrequencyHz) Hz, scipy \(fields[1])")
            // The peak is the breathing's own frequency, within a bin or two.
            #expect(abs(fields[1] - step.breathsPerMinute / 60) < 0.006)
        }
    }
}
