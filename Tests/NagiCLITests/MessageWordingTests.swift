import Foundation
import HeartRhythm
import NagiTestSupport
import Testing

/// The wording of nagi's messages as a user meets them (issue 46, defect 15): one quoting style for paths and names,
/// a start's source said as it is, a chapters warning that says it is one, once, and only when chapters were asked
/// for, and Ctrl-C's line on a line of its own under a progress bar.
@Suite("message wording: quotes, starts, chapters, Ctrl-C", .serialized)
struct MessageWordingTests {
    @Test("every path or name nagi quotes in an error is in single quotes, never double")
    func singleQuotes() throws {
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "precious".write(to: folder.appendingPathComponent("exists.wav"), atomically: true, encoding: .utf8)
        try "garbage".write(to: folder.appendingPathComponent("g.wav"), atomically: true, encoding: .utf8)
        let alsa = try EmptyALSAConfiguration.make()
        /// A path in the test's folder, absolute (the in-process runs have no working directory of their own).
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let cases: [(arguments: [String], quoted: String)] = [
            (["render", "box", "--cycles", "1", "--cover", path("missing.png"), "-o", path("o.flac")], path("missing.png")),
            (["render", "box", "--cycles", "1", "--bed", path("missing.wav"), "-o", path("o.wav")], path("missing.wav")),
            (["render", "box", "--cycles", "1", "-o", path("exists.wav")], path("exists.wav")),
            (["render", "box", "--cycles", "1", "--cue-pack", path("nofolder"), "-o", path("o.wav")], path("nofolder")),
            (["describe", path("missing.json")], path("missing.json")),
            (["describe", path("g.wav")], path("g.wav")),
            (["play", "box", "--cycles", "1", "--device", "nosuchdevice"], "nosuchdevice"),
        ]
        for (arguments, quoted) in cases {
            // play opens ALSA, which reads ALSA_CONFIG_PATH from the process's own environment: a process of its own.
            let result = arguments[0] == "play"
                ? try NagiProcess.run(arguments, in: folder, environment: [EmptyALSAConfiguration.variable: alsa.path])
                : NagiInProcess.run(arguments, home: folder)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.standardError.contains("'\(quoted)'"), "\(arguments): \(result.standardError)")
            #expect(!result.standardError.contains("\""), "\(arguments): \(result.standardError)")
        }
    }

    @Test("resonance analyze says where a start it did not find came from: --start, or the start play recorded")
    func startSource() throws {
        let (folder, heart) = try ResonanceCommandTests.recordFolder(rate: 4.5, seed: 17)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state/nagi/sessions")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let started = ResonanceCommandTests.recordStart.adding(seconds: heart.leadSeconds)
        try "{\"session\": \"resonance-steps\", \"startedAt\": \"\(started.isoText)\"}\n".write(to: state.appendingPathComponent("resonance-steps.json"), atomically: true, encoding: .utf8)

        let record = folder.appendingPathComponent("rr.txt").path
        let recorded = NagiInProcess.run(["resonance", "analyze", record, "--start-from-progress", "resonance-steps"], home: folder)
        #expect(recorded.status == 0, "\(recorded.standardError)")
        let line = try #require(recorded.standardOutput.split(separator: "\n").first { $0.hasPrefix("session starts ") })
        #expect(line.hasSuffix("s into the record (recorded when 'resonance-steps' last started, at \(started.isoText))"), "\(line)")
        #expect(!recorded.standardOutput.contains("(given"))

        let given = NagiInProcess.run(["resonance", "analyze", record, "--start", "37.3"], home: folder)
        #expect(given.status == 0, "\(given.standardError)")
        #expect(given.standardOutput.contains("session starts 37.30 s into the record (given by --start)"), "\(given.standardOutput)")
    }

    /// 1020 phases (510 breaths of 1-1): more chapters than a file holds.
    static let longArguments = ["1-1", "--cycles", "510", "--rate", "8000", "--channels", "1", "--cues", "none"]

    @Test("a render with more phases than chapters warns only when chapters were asked for, with warning:")
    func chaptersWarningOnRender() throws {
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = NagiInProcess.run(["render"] + Self.longArguments + ["-o", folder.appendingPathComponent("plain.flac").path], home: folder)
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(!plain.standardError.contains("chapters"), "the default asked for none by name: \(plain.standardError)")
        let asked = NagiInProcess.run(["render"] + Self.longArguments + ["--chapters", "phases", "-o", folder.appendingPathComponent("asked.flac").path], home: folder)
        #expect(asked.status == 0, "\(asked.standardError)")
        let warnings = asked.standardError.split(separator: "\n").filter { $0.contains("chapters") }
        #expect(warnings == ["nagi: warning: no chapters written: the session has 1020 phases, a file holds at most 999"], "\(asked.standardError)")
    }

    @Test("a course export warns once for all its tracks without chapters, not once a track")
    func chaptersWarningOnExport() throws {
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lesson = "{\"title\": \"Quick\", \"pattern\": \"1-1\", \"cycles\": 510, \"cues\": \"none\"}"
        let course = "{\"name\": \"quick\", \"title\": \"Quick\", \"lessons\": [\(lesson), \(lesson), \(lesson)]}"
        try course.write(to: folder.appendingPathComponent("quick.json"), atomically: true, encoding: .utf8)
        let result = NagiInProcess.run(["course", "export", folder.appendingPathComponent("quick.json").path, "-o", folder.appendingPathComponent("album").path, "--rate", "8000", "--channels", "1", "--chapters", "phases", "--jobs", "2"], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let warnings = result.standardError.split(separator: "\n").filter { $0.contains("chapters") }
        #expect(warnings == ["nagi: warning: 01 - Quick.flac and 2 other tracks: no chapters written: the session has 1020 phases, a file holds at most 999"], "\(result.standardError)")
    }

    @Test("Ctrl-C under render's progress bar: the interruption's line starts a line of its own")
    func interruptionOnItsOwnLine() throws {
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try TerminalViewTests.interrupt(
            "'\(NagiProcess.executableURL.path)' render 4-7-8 --minutes 600 -o long.flac", in: folder,
            session: "nagi-ctrl-c-\(getpid())", once: "% long.flac", thenShowing: "interrupted")
        #expect(run.status.contains("exit=130"), "\(run.status)")
        #expect(run.line?.hasPrefix("nagi: error: interrupted by Ctrl-C") == true, "\(run.screen)")
        #expect(!run.screen.contains("% long.flac"), "the bar is cleared: \(run.screen)")
    }

    @Test("Ctrl-C under course export's display: the interruption's line starts at the line's start, the display gone")
    func exportInterruptionOnItsOwnLine() throws {
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lesson = "{\"title\": \"Long\", \"pattern\": \"2-2\", \"minutes\": 60}"
        try "{\"name\": \"long\", \"title\": \"Long\", \"lessons\": [\(lesson), \(lesson)]}".write(to: folder.appendingPathComponent("long.json"), atomically: true, encoding: .utf8)
        let run = try TerminalViewTests.interrupt(
            "'\(NagiProcess.executableURL.path)' course export ./long.json -o album --jobs 1", in: folder,
            session: "nagi-export-ctrl-c-\(getpid())", once: "exporting:", thenShowing: "interrupted")
        #expect(run.status.contains("exit=130"), "\(run.status)")
        #expect(run.line?.hasPrefix("nagi: error: interrupted by Ctrl-C") == true, "\(run.screen)")
        #expect(!run.screen.contains("exporting:") && !run.screen.contains("^C"), "the display and the echoed ^C are cleared: \(run.screen)")
    }
}
