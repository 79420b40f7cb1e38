import Foundation
import HeartRhythm
import HeartRhythmTestSupport
import NagiTestSupport
import Testing

/// `nagi resonance analyze` as a user runs it: a Polar-style record in, the table, JSON and plot out; bad
/// records refused with one line and nothing written; the start taken from what `play` recorded.
@Suite("nagi resonance analyze")
struct ResonanceCommandTests {
    /// The record's clock at its first beat (local time, no zone, as Polar Sensor Logger writes).
    static let recordStart = ClockTime.parse("2026-12-02T07:29:00.000")!

    /// A folder holding `rr.txt`, a record with the resonance at `rate`, the session starting 37.3 s into it.
    static func recordFolder(rate: Double = 5, seed: UInt64 = 5) throws -> (URL, SyntheticHeart) {
        let folder = try NagiProcess.temporaryFolder()
        let heart = SyntheticHeart(breathing: try SyntheticHeart.breathing(), resonantRate: rate, seed: seed)
        let text = heart.polarText(startClock: recordStart)
        try text.write(to: folder.appendingPathComponent("rr.txt"), atomically: true, encoding: .utf8)
        return (folder, heart)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("a clock --start: JSON with every figure, the resonant step best, and a plot of heart rate over the steps")
    func jsonAndPlot() throws {
        let (folder, heart) = try Self.recordFolder()
        let start = Self.recordStart.adding(seconds: heart.leadSeconds).isoText
        let record = folder.appendingPathComponent("rr.txt").path
        let result = NagiInProcess.run(["resonance", "analyze", record, "--start", start, "--json", "--plot", folder.appendingPathComponent("steps.svg").path], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let object = try Self.json(result.standardOutput)
        let best = try #require(object["best"] as? [String: Any])
        #expect(best["breathsPerMinute"] as? Double == 5)
        #expect((best["verdict"] as? String) == "5 breaths/min, clearly")
        #expect(best["clear"] as? Bool == true)
        #expect(object["reason"] is NSNull)
        #expect(abs((object["offsetSeconds"] as? Double ?? 0) - heart.leadSeconds) < 0.01)
        let steps = try #require(object["steps"] as? [[String: Any]])
        #expect(steps.map { $0["breathsPerMinute"] as? Double } == [6.5, 6, 5.5, 5, 4.5])
        for key in ["meanHeartRate", "peakToTrough", "lowFrequencyPower", "peakFrequencyHz", "phaseDegrees"] {
            #expect(steps.allSatisfy { $0[key] is Double }, "\(key)")
        }
        #expect(object["artefacts"] is Int)
        let svg = try String(contentsOf: folder.appendingPathComponent("steps.svg"), encoding: .utf8)
        #expect(svg.contains("data-curve=\"heart-rate\"") && svg.contains("data-curve=\"level\""))
        #expect(svg.components(separatedBy: "data-step=").count - 1 == 5)
        // An independent reader: librsvg renders it.
        let png = folder.appendingPathComponent("steps.png").path
        let (status, output) = try Tool.run("/usr/bin/rsvg-convert", ["-o", png, folder.appendingPathComponent("steps.svg").path])
        #expect(status == 0, "\(output)")
    }

    @Test("a record breathed at 6/min throughout: no verdict, `best` null and the reason in JSON, a reason line in the table")
    func noVerdict() throws {
        let folder = try NagiProcess.temporaryFolder()
        var heart = SyntheticHeart(breathing: try SyntheticHeart.breathing(), resonantRate: 5, seed: 23)
        heart.breathed = .constant(6)
        try heart.polarText(startClock: Self.recordStart).write(to: folder.appendingPathComponent("rr.txt"), atomically: true, encoding: .utf8)
        let start = Self.recordStart.adding(seconds: heart.leadSeconds).isoText
        let record = folder.appendingPathComponent("rr.txt").path
        let json = NagiInProcess.run(["resonance", "analyze", record, "--start", start, "--json"], home: folder)
        #expect(json.status == 0, "\(json.standardError)")
        let object = try Self.json(json.standardOutput)
        #expect(object["best"] is NSNull)
        let reason = try #require(object["reason"] as? String)
        #expect(reason.contains("does not follow the session's paces"), "\(reason)")
        let table = NagiInProcess.run(["resonance", "analyze", record, "--start", start], home: folder)
        #expect(table.status == 0)
        #expect(table.standardOutput.contains("\nno verdict: the heart rate does not follow"), "\(table.standardOutput)")
        #expect(!table.standardOutput.contains(" *"))
    }

    @Test("--column picks the RR column of a CSV whose header names none; 200 001 beats refused with 65; --column 0 is 64")
    func columnAndSizeLimit() throws {
        let (folder, heart) = try Self.recordFolder(rate: 5.5, seed: 29)
        // The same record with the RR column renamed and a heart-rate column before it, decimal commas, ';'.
        var lines = ["Zeit;HF;Schlag"]
        for line in heart.polarText(startClock: Self.recordStart).split(separator: "\n").dropFirst() {
            let cells = line.split(separator: ";")
            lines.append("\(cells[0]);70;\(cells[1]),0")
        }
        try lines.joined(separator: "\n").write(to: folder.appendingPathComponent("de.csv"), atomically: true, encoding: .utf8)
        let start = Self.recordStart.adding(seconds: heart.leadSeconds).isoText
        let csv = folder.appendingPathComponent("de.csv").path
        let result = NagiInProcess.run(["resonance", "analyze", csv, "--column", "3", "--start", start, "--json"], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let object = try Self.json(result.standardOutput)
        #expect((object["best"] as? [String: Any])?["breathsPerMinute"] as? Double == 5.5)
        let steps = try #require(object["steps"] as? [[String: Any]])
        #expect(steps.allSatisfy { ($0["rmssdMilliseconds"] as? Double ?? 0) > 0 && ($0["sdnnMilliseconds"] as? Double ?? 0) > 0 })
        let zero = NagiInProcess.run(["resonance", "analyze", csv, "--column", "0"], home: folder)
        #expect(zero.status == 64)
        try String(repeating: "812\n", count: 200_001).write(to: folder.appendingPathComponent("long.txt"), atomically: true, encoding: .utf8)
        let longPath = folder.appendingPathComponent("long.txt").path
        let long = NagiInProcess.run(["resonance", "analyze", longPath], home: folder)
        #expect(long.status == 65)
        #expect(long.standardError == "nagi: error: \(longPath): more than 200000 beats, the most a record may hold (48 hours at 70 a minute); cut the record to the session\n")
    }

    @Test("--align auto (the default) prints the table with the offset found within 2 s and a clear verdict")
    func table() throws {
        let (folder, heart) = try Self.recordFolder(rate: 6, seed: 11)
        let result = NagiInProcess.run(["resonance", "analyze", folder.appendingPathComponent("rr.txt").path], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.standardOutput
        #expect(text.contains("best: 6 breaths/min, clearly"), "\(text)")
        #expect(text.contains("(found: correlation"))
        let offsetLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("session starts ") })
        let offset = try #require(Double(offsetLine.dropFirst("session starts ".count).prefix { $0 != " " }))
        #expect(abs(offset - heart.leadSeconds) <= 2)
        #expect(text.contains("6 breaths/min *"))
    }

    @Test("--start-from-progress takes the start `play` recorded (local time with zone) and places it on the record's clock")
    func startFromProgress() throws {
        let (folder, heart) = try Self.recordFolder(rate: 4.5, seed: 17)
        let state = folder.appendingPathComponent("state/nagi/sessions")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        var started = Self.recordStart.adding(seconds: heart.leadSeconds)
        started.zoneOffsetSeconds = 3600
        try "{\"session\": \"resonance-steps\", \"startedAt\": \"\(started.isoText)\"}\n".write(to: state.appendingPathComponent("resonance-steps.json"), atomically: true, encoding: .utf8)
        let record = folder.appendingPathComponent("rr.txt").path
        let result = NagiInProcess.run(["resonance", "analyze", record, "--start-from-progress", "resonance-steps", "--json"], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let object = try Self.json(result.standardOutput)
        #expect(abs((object["offsetSeconds"] as? Double ?? 0) - heart.leadSeconds) < 0.01)
        #expect((object["best"] as? [String: Any])?["breathsPerMinute"] as? Double == 4.5)
        let missing = NagiInProcess.run(["resonance", "analyze", record, "--start-from-progress", "box"], home: folder)
        #expect(missing.status == 66)
        #expect(missing.standardError == "nagi: error: no recorded start for 'box': play it with `nagi play box` (or `nagi course next` for a course) first\n")
    }

    @Test("bad records exit 65 with one line and leave no plot; a missing file 66; two starts 64")
    func refusals() throws {
        let folder = try NagiProcess.temporaryFolder()
        func write(_ name: String, _ text: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try write("short.txt", String(repeating: "900\n", count: 30))
        try write("noisy.txt", (0..<2000).map { $0 % 3 == 0 ? "250" : "900" }.joined(separator: "\n"))
        try write("nocolumn.csv", "time;hr\n07:30:00;71\n")
        try write("binary.bin", "812\n\u{0}\u{1}\u{2}")
        let cases: [(String, Int32, String)] = [
            ("short.txt", 65, "the record is too short: 30 beats"),
            ("noisy.txt", 65, "are artefacts, more than 20 %"),
            ("nocolumn.csv", 65, "no RR or IBI column"),
            ("binary.bin", 65, "not a text file"),
            ("absent.txt", 66, "cannot read '\(folder.appendingPathComponent("absent.txt").path)': No such file or directory"),
        ]
        for (name, status, words) in cases {
            let result = NagiInProcess.run(["resonance", "analyze", folder.appendingPathComponent(name).path, "--plot", folder.appendingPathComponent("out.svg").path], home: folder)
            #expect(result.status == status, "\(name): \(result.standardError)")
            #expect(result.standardError.hasPrefix("nagi: error: ") && result.standardError.contains(words), "\(name): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1)
            #expect(result.standardOutput.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.svg").path))
        }
        // With --json a refused record still answers with an object saying why, and exits 65.
        let refusedJSON = NagiInProcess.run(["resonance", "analyze", folder.appendingPathComponent("short.txt").path, "--json"], home: folder)
        #expect(refusedJSON.status == 65)
        let refusal = try Self.json(refusedJSON.standardOutput)
        #expect(refusal["refused"] as? Bool == true)
        #expect(refusal["best"] is NSNull)
        #expect((refusal["reason"] as? String)?.contains("the record is too short: 30 beats") == true, "\(refusal)")
        #expect(refusedJSON.standardError.split(separator: "\n").count == 1)
        // A --start date that does not exist is refused as such.
        let february = NagiInProcess.run(["resonance", "analyze", folder.appendingPathComponent("short.txt").path, "--start", "2025-02-30T08:16:00"], home: folder)
        #expect(february.status == 64)
        #expect(february.standardError == "nagi: error: --start 2025-02-30T08:16:00: 2025-02-30 does not exist: February 2025 has 28 days\n")
        let both = NagiInProcess.run(["resonance", "analyze", folder.appendingPathComponent("short.txt").path, "--start", "10", "--align", "auto"], home: folder)
        #expect(both.status == 64)
        let clock = NagiInProcess.run(["resonance", "analyze", folder.appendingPathComponent("noisy.txt").path, "--start", "7:30"], home: folder)
        #expect(clock.status == 64)
    }
}
