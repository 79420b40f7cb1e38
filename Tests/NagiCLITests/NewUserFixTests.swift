import AudioFile
import Foundation
import FoundationXML
import NagiTestSupport
import Testing
@testable import NagiCLI
@testable import NagiOptions
@testable import NagiPlot
import NagiDocuments

/// What a new user tripped on (issue 13, items 7 and 9-15), each checked as they would meet it.
@Suite("Fixes a new user asked for")
struct NewUserFixTests {
    static func folder() throws -> URL { try NagiProcess.temporaryFolder() }

    static let hostileTitle = "\u{1B}[31mRED\nforged line\u{07}"

    static func jsonString(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 { quoted += String(format: "\\u%04x", scalar.value) } else { quoted.unicodeScalars.append(scalar) }
        }
        return quoted + "\""
    }

    static func assertNoControls(_ text: String, _ what: String) {
        let controls = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
        #expect(controls.isEmpty, "\(what) printed raw control characters: \(controls.map(\.value))")
        #expect(!text.contains("forged line\n") || text.contains("\\nforged line"), "\(what) printed the title's newline")
    }

    /// Since issue 46 a title holding control characters is refused where it is used (65, `DisplayTextRuleTests`);
    /// what reaches the terminal on the way, the error line or the preset list, shows none of them raw.
    @Test("hostile titles from JSON never reach the terminal raw: describe, course show and status refuse them (65), presets escapes them")
    func controlCharactersEscaped() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pattern = folder.appendingPathComponent("hostile.json")
        try "{\"title\": \(Self.jsonString(Self.hostileTitle)), \"description\": \(Self.jsonString(Self.hostileTitle)), \"phases\": [{\"kind\": \"inhale\", \"seconds\": 2}, {\"kind\": \"exhale\", \"seconds\": 2}]}".write(to: pattern, atomically: true, encoding: .utf8)
        let describe = NagiInProcess.run(["describe", pattern.path])
        #expect(describe.status == 65, "\(describe.standardError)")
        Self.assertNoControls(describe.standardOutput + describe.standardError, "describe")
        #expect(describe.standardError.contains("hostile.json: $.title: holds U+001B"), "\(describe.standardError)")

        let userPatterns = folder.appendingPathComponent("config/nagi/patterns")
        try FileManager.default.createDirectory(at: userPatterns, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: pattern, to: userPatterns.appendingPathComponent("hostile.json"))
        let presets = NagiInProcess.run(["presets"], home: folder)
        #expect(presets.status == 0)
        Self.assertNoControls(presets.standardOutput, "presets")
        #expect(presets.standardOutput.contains("\\u{1B}[31mRED"))

        let course = folder.appendingPathComponent("course.json")
        try "{\"name\": \"c\", \"title\": \(Self.jsonString(Self.hostileTitle)), \"description\": \(Self.jsonString(Self.hostileTitle)), \"lessons\": [{\"title\": \(Self.jsonString(Self.hostileTitle)), \"pattern\": \"2-2\", \"cycles\": 1}]}".write(to: course, atomically: true, encoding: .utf8)
        for command in [["course", "show", course.path], ["course", "status", course.path]] {
            let result = NagiInProcess.run(command, home: folder)
            #expect(result.status == 65, "\(result.standardError)")
            Self.assertNoControls(result.standardOutput + result.standardError, command.joined(separator: " "))
            #expect(result.standardError.contains("course.json: $.title: holds U+001B"), "\(result.standardError)")
        }
        #expect(TerminalText.printable("a\u{202E}b\u{85}c") == "a\\u{202E}b\\u{85}c")
        #expect(TerminalText.printable("Day 1 — Arrive") == "Day 1 — Arrive")
    }

    @Test("course export without -o writes to ./<course name>")
    func exportDefaultFolder() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try CourseTests.writeCourse(in: folder)
        let result = try NagiProcess.run(["course", "export", file, "--format", "wav"], in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(NagiProcess.names(in: folder.appendingPathComponent("tiny")).filter { $0.hasSuffix(".wav") }.count == 3)
        #expect(result.standardError.contains("to ./tiny"), "\(result.standardError)")
        let help = NagiInProcess.run(["course", "export", "--help"])
        #expect(help.standardOutput.contains("default: ./<course name>"))
    }

    @Test("export redoes a track whose file no longer matches the manifest; words are counted right")
    func exportRedoesReplacedTrack() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try CourseTests.writeCourse(in: folder)
        let album = folder.appendingPathComponent("album")
        let first = NagiInProcess.run(["course", "export", file, "-o", album.path, "--jobs", "1"], home: folder)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardError.contains("exported 3 tracks") && first.standardError.contains("1 job;") == false && first.standardError.contains(", 1 job"), "\(first.standardError)")
        let again = NagiInProcess.run(["course", "export", file, "-o", album.path], home: folder)
        #expect(again.standardError == "nothing to export: 3 tracks already up to date in \(album.path)\n", "\(again.standardError)")

        let track = album.appendingPathComponent("01 - Day 1 — Arrive.flac")
        let frameCount = try AudioFileReader.info(path: track.path).frameCount
        try Data([0x66, 0x4C]).write(to: track)
        let redo = NagiInProcess.run(["course", "export", file, "-o", album.path], home: folder)
        #expect(redo.status == 0, "\(redo.standardError)")
        #expect(redo.standardError.contains("exported 1 track ("), "\(redo.standardError)")
        #expect(redo.standardError.contains("2 already up to date"))
        let info = try AudioFileReader.info(path: track.path)
        #expect(info.frameCount == frameCount)

        // Same size, other content and time: still redone.
        let second = album.appendingPathComponent(NagiProcess.names(in: album).first { $0.hasPrefix("03") } ?? "")
        let bytes = try Data(contentsOf: second)
        Thread.sleep(forTimeInterval: 0.02)
        try Data(repeating: 0, count: bytes.count).write(to: second)
        let sameSize = NagiInProcess.run(["course", "export", file, "-o", album.path], home: folder)
        #expect(sameSize.standardError.contains("exported 1 track ("), "\(sameSize.standardError)")
        #expect(try AudioFileReader.info(path: second.path).frameCount > 0)
    }

    @Test("words: plurals, rounds and breaths, an untitled header, lowercase errors, hold labels")
    func words() throws {
        #expect(NumberText.count(1, "track") == "1 track")
        #expect(NumberText.count(0, "track") == "0 tracks")
        #expect(NumberText.count(2, "job") == "2 jobs")
        #expect(CourseExport.summaryLine(exportedCount: 1, skippedCount: 0, audioSeconds: 8, wallSeconds: 0.5, jobCount: 1, folder: "a") == "exported 1 track (0:08 of audio) to a in 0.50 s, 16× real time, 1 job")
        #expect(CourseExport.summaryLine(exportedCount: 0, skippedCount: 1, audioSeconds: 0, wallSeconds: 0.01, jobCount: 4, folder: "a") == "nothing to export: 1 track already up to date in a")

        let wimHof = NagiInProcess.run(["describe", "wim-hof", "--cycles", "4"])
        let last = wimHof.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        // Four rounds of 30 quick breaths and one recovery breath each.
        #expect(last.hasPrefix("4 rounds · 124 breaths · "), "\(last)")
        #expect(!last.contains("cycles"))
        let box = NagiInProcess.run(["describe", "box", "--cycles", "1"])
        #expect(box.standardOutput.split(separator: "\n").last?.hasPrefix("1 breath · ") == true, "\(box.standardOutput)")

        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"phases": [{"kind": "inhale", "seconds": 2}, {"kind": "holdIn", "seconds": 1}, {"kind": "exhale", "seconds": 2}, {"kind": "holdOut", "seconds": 1}]}"#.write(to: folder.appendingPathComponent("e.json"), atomically: true, encoding: .utf8)
        let pattern = folder.appendingPathComponent("e.json").path
        let untitled = NagiInProcess.run(["describe", pattern], home: folder)
        #expect(untitled.standardOutput.hasPrefix("e at 48000 Hz\n"), "\(untitled.standardOutput)")

        let labels = NagiInProcess.run(["render", pattern, "--cycles", "1", "-o", folder.appendingPathComponent("e.wav").path, "--labels", folder.appendingPathComponent("e.txt").path, "--quiet"], home: folder)
        #expect(labels.status == 0, "\(labels.standardError)")
        let labelText = try String(contentsOf: folder.appendingPathComponent("e.txt"), encoding: .utf8)
        #expect(labelText.split(separator: "\n").map { $0.split(separator: "\t").last.map(String.init) ?? "" } == ["inhale", "hold", "exhale", "hold"])

        // alsa-lib reads the test process's environment: its pulse hook wants a runtime folder of its own.
        RuntimeFolder.ensure()
        let device = NagiInProcess.run(["play", "box", "--cycles", "1", "--device", "nosuchdevice", "--quiet"])
        #expect(device.status == 69)
        #expect(device.standardError.hasPrefix("nagi: error: cannot play"), "\(device.standardError)")

        let limit = NagiInProcess.run(["describe", "0.000001-0.000001", "--minutes", "1"])
        #expect(limit.status == 65 || limit.status == 64)
        #expect(limit.standardError.contains("500000 phases") && !limit.standardError.contains("24 hours"), "\(limit.standardError)")
        let long = NagiInProcess.run(["describe", "box", "--minutes", "1441"])
        #expect(long.standardError.contains("24 hours"), "\(long.standardError)")

        let plot = NagiInProcess.run(["plot", "box", "--quiet", "-o", folder.appendingPathComponent("box.svg").path], home: folder)
        #expect(plot.status == 0 && plot.standardError.isEmpty, "\(plot.standardError)")
    }

    @Test("nice axes: steps of 1, 2, 2.5 or 5 times a power of ten, covering the data")
    func niceAxis() {
        let level = NiceAxis(covering: 0...1)
        #expect(level.ticks == [0, 0.25, 0.5, 0.75, 1])
        #expect(level.ticks.map(level.label) == ["0.00", "0.25", "0.50", "0.75", "1.00"])
        let pitch = NiceAxis(covering: 187.3...243.9)
        #expect(pitch.ticks.allSatisfy { $0.truncatingRemainder(dividingBy: 10) == 0 }, "\(pitch.ticks)")
        #expect(pitch.range.lowerBound <= 187.3 && pitch.range.upperBound >= 243.9)
        let gain = NiceAxis(covering: -21.7 ... -16.2)
        #expect(gain.ticks.map(gain.label) == ["-22", "-21", "-20", "-19", "-18", "-17", "-16"])
        let envelope = NiceAxis(covering: 0...2.5)
        #expect(envelope.ticks == [0, 0.5, 1, 1.5, 2, 2.5])
    }

    @Test("the plot's overview axis covers the whole envelope (Wim Hof's retention swell), with round ticks")
    func plotAxisCoversEnvelope() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plotted = NagiInProcess.run(["plot", "wim-hof", "-o", folder.appendingPathComponent("plot.svg").path], home: folder)
        #expect(plotted.status == 0, "\(plotted.standardError)")
        let document = try XMLDocument(data: Data(contentsOf: folder.appendingPathComponent("plot.svg")))
        let envelope = try PlotTests.curve(document, "overview-envelope").map(\.1)
        let peak = try #require(envelope.max())
        #expect(peak > 1.2, "the retention swell should lift the envelope well above 1")
        func ticks(_ axis: String) throws -> [Double] {
            try document.nodes(forXPath: "//*[@data-axis='\(axis)']/@data-tick").compactMap { $0.stringValue.flatMap(Double.init) }
        }
        let overview = try ticks("overview")
        #expect(try #require(overview.max()) >= peak, "axis ends at \(overview.max() ?? 0) below the envelope's \(peak)")
        for axis in ["level", "pitch", "gain", "envelope", "overview", "overview-gain"] {
            let values = try ticks(axis)
            #expect(values.count >= 3, "\(axis)")
            let step = values[1] - values[0]
            var magnitude = 1.0
            while magnitude > step { magnitude /= 10 }
            while magnitude * 10 <= step { magnitude *= 10 }
            #expect([1, 2, 2.5, 5].contains { abs(step - $0 * magnitude) < 1e-9 }, "\(axis) steps by \(step)")
            #expect(values.allSatisfy { abs(($0 / step).rounded() * step - $0) < 1e-9 }, "\(axis): \(values)")
        }
    }

    @Test("a session's \"pattern\": \"./my.json\" resolves relative to the including file")
    func relativeInclude() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sub = folder.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try #"{"title": "Mine", "phases": [{"kind": "inhale", "seconds": 3}, {"kind": "exhale", "seconds": 5}]}"#.write(to: sub.appendingPathComponent("my.json"), atomically: true, encoding: .utf8)
        try #"{"title": "Session", "stages": [{"pattern": "./my.json", "cycles": 2}, {"pattern": "box", "cycles": 1}]}"#.write(to: sub.appendingPathComponent("session.json"), atomically: true, encoding: .utf8)
        // Run from the parent folder: "./my.json" must not mean ./my.json here.
        let result = try NagiProcess.run(["describe", "sub/session.json", "--json"], in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"totalSeconds\":32"), "\(result.standardOutput.prefix(300))")
        try #"{"stages": [{"pattern": "./missing.json", "cycles": 1}]}"#.write(to: sub.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let missing = try NagiProcess.run(["describe", "sub/bad.json"], in: folder)
        #expect(missing.status == 66, "\(missing.standardError)")
        // Named as a user would write it (issue 21 item 16: no "./" pasted into the middle).
        #expect(missing.standardError.contains("'sub/missing.json'"), "\(missing.standardError)")
        try #"{"stages": [{"pattern": "./loop.json", "cycles": 1}]}"#.write(to: sub.appendingPathComponent("loop.json"), atomically: true, encoding: .utf8)
        let loop = try NagiProcess.run(["describe", "sub/loop.json"], in: folder)
        #expect(loop.status == 65, "\(loop.standardError)")
    }
}
