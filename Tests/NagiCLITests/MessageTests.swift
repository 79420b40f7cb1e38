import AudioFile
import Foundation
import NagiTestSupport
import Testing

/// Issue 21 items 7, 9, 10 and 11: what nagi prints and tags says what happened, with user text escaped.
@Suite("Messages: escaped paths, titles, cue-point warnings, hints that work")
struct MessageTests {
    /// The file's tags as ffprobe reads them (`TAG:title=…` lines).
    static func tags(_ path: String) throws -> String {
        // Keys in lower case: ffprobe prints them as the file spells them (TITLE in a Vorbis comment).
        let output = try Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", path]).output
        return output.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("TAG:"), let equals = line.firstIndex(of: "=") else { return String(line) }
            return "TAG:" + line[line.index(line.startIndex, offsetBy: 4)..<equals].lowercased() + line[equals...]
        }.joined(separator: "\n")
    }

    @Test("success lines escape control characters in user paths (render, plot, course export)")
    func successLinesEscapePaths() throws {
        let folder = try NagiProcess.temporaryFolder()
        let course = #"{"name": "tiny", "title": "Tiny", "lessons": [{"title": "One", "pattern": "1-1", "cycles": 1}]}"#
        try Data(course.utf8).write(to: folder.appendingPathComponent("tiny.json"))
        // Paths absolute (the run is in process): the message names the folder, then the escaped name.
        let base = folder.path + "/"
        let cases: [(arguments: [String], shown: String)] = [
            (["render", "box", "--cycles", "1", "-o", base + "e\u{1B}[2Jx.wav"], "wrote \(base)e\\u{1B}[2Jx.wav"),
            (["render", "box", "--cycles", "1", "-o", base + "new\nline.wav"], "wrote \(base)new\\nline.wav"),
            (["plot", "box", "-o", base + "p\u{1B}[31m.svg"], "wrote \(base)p\\u{1B}[31m.svg"),
            (["course", "export", base + "tiny.json", "-o", base + "al\u{1B}]0;bum"], "to \(base)al\\u{1B}]0;bum"),
        ]
        for (arguments, shown) in cases {
            let result = NagiInProcess.run(arguments, home: folder)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(shown), "\(result.standardError)")
            #expect(!result.standardError.unicodeScalars.contains("\u{1B}"), "raw ESC in \(result.standardError.debugDescription)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError.debugDescription)")
        }
    }

    @Test("--title with a control character exits 64 before anything is written", arguments: ["a\u{1B}[2Jb", "two\nlines", "bell\u{07}"])
    func titleControlCharactersRefused(title: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let result = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", folder.appendingPathComponent("t.wav").path, "--title", title], home: folder)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("nagi: error: --title") && result.standardError.contains("control characters"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(NagiProcess.names(in: folder).isEmpty)
        let plain = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", folder.appendingPathComponent("t.flac").path, "--title", "Évening — box", "--quiet"], home: folder)
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(try Self.tags(folder.appendingPathComponent("t.flac").path).contains("TAG:title=Évening — box"))
    }

    @Test("a WAV of more phases than a file holds chapters says so on stderr and carries no cue points (they are its chapters); one that fits says nothing")
    func droppedCuePointsWarned() throws {
        let folder = try NagiProcess.temporaryFolder()
        // 0.2 s phases for 3.4 minutes: 1020 phases, past the 999 chapters a file holds (said when they were asked for).
        let long = NagiInProcess.run(["render", "0.2-0.2", "--minutes", "3.4", "--rate", "8000", "--channels", "1", "--no-cues", "--chapters", "phases", "-o", folder.appendingPathComponent("long.wav").path], home: folder)
        #expect(long.status == 0, "\(long.standardError)")
        #expect(long.standardError.contains("no chapters written: the session has 1020 phases"), "\(long.standardError)")
        let cues = try AudioFileReader.info(path: folder.appendingPathComponent("long.wav").path).cueFrames
        #expect(cues.isEmpty)
        let short = NagiInProcess.run(["render", "0.2-0.2", "--minutes", "3.2", "--rate", "8000", "--channels", "1", "--no-cues", "-o", folder.appendingPathComponent("short.wav").path], home: folder)
        #expect(short.status == 0)
        #expect(!short.standardError.contains("no chapters"), "\(short.standardError)")
        #expect(try AudioFileReader.info(path: folder.appendingPathComponent("short.wav").path).cueFrames.count == 960)
    }

    @Test("wim-hof's title tag states the rounds played: three by default, four with --cycles 4")
    func wimHofTitleFollowsLength() throws {
        let folder = try NagiProcess.temporaryFolder()
        for (extra, rounds) in [([String](), "3 rounds"), (["--cycles", "4"], "4 rounds")] {
            let name = "w\(rounds.prefix(1)).flac"
            let result = NagiInProcess.run(["render", "wim-hof", "--rate", "8000", "--channels", "1", "--no-cues", "-o", folder.appendingPathComponent(name).path, "--quiet"] + extra, home: folder)
            #expect(result.status == 0, "\(result.standardError)")
            let tags = try Self.tags(folder.appendingPathComponent(name).path)
            #expect(tags.contains("TAG:title=Wim Hof breathing, \(rounds) ("), "\(tags)")
            #expect(!tags.lowercased().contains("three"), "\(tags)")
        }
    }

    @Test("a course given by path is named by its path in the hint, and the hint's command works")
    func courseHintNamesThePath() throws {
        let folder = try NagiProcess.temporaryFolder()
        let course = #"{"name": "mini", "title": "Mini", "lessons": [{"title": "One", "pattern": "1-1", "cycles": 1}]}"#
        try Data(course.utf8).write(to: folder.appendingPathComponent("mini course.json"))
        let device = "file:'\(folder.appendingPathComponent("capture.raw").path)',raw"
        let first = try NagiProcess.run(["course", "next", "./mini course.json", "--device", device, "--quiet"], in: folder)
        #expect(first.status == 0, "\(first.standardError)")
        let done = try NagiProcess.run(["course", "next", "./mini course.json", "--device", device], in: folder)
        #expect(done.status == 0, "\(done.standardError)")
        #expect(done.standardOutput.contains("`nagi course status './mini course.json' --reset` starts over"), "\(done.standardOutput)")
        let reset = try NagiProcess.run(["course", "status", "./mini course.json", "--reset"], in: folder)
        #expect(reset.status == 0, "\(reset.standardError)")
        let byName = try NagiProcess.run(["course", "status", "mini", "--reset"], in: folder)
        #expect(byName.status == 66, "the name alone is not a course nagi can find")
    }

    @Test("--bits help and behaviour agree: the formats it says take float do, and flac, which it says does not, is refused (item 15)")
    func bitsHelpMatchesBehaviour() throws {
        let help = NagiInProcess.run(["render", "--help"])
        let bitsHelp = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(bitsHelp.contains("wav, raw and live playback take all three, flac 16 or 24"), "\(help.standardOutput)")
        let folder = try NagiProcess.temporaryFolder()
        for name in ["f.wav", "f.raw"] {
            let result = NagiInProcess.run(["render", "box", "--cycles", "1", "--bits", "float", "-o", folder.appendingPathComponent(name).path, "--quiet"], home: folder)
            #expect(result.status == 0, "\(name): \(result.standardError)")
        }
        let flac = NagiInProcess.run(["render", "box", "--cycles", "1", "--bits", "float", "-o", folder.appendingPathComponent("f.flac").path], home: folder)
        #expect(flac.status == 64 && flac.standardError.contains("FLAC stores integer samples only"), "\(flac.standardError)")
        #expect(!NagiProcess.names(in: folder).contains("f.flac"))
    }

    @Test("misleading messages of item 16: an oversized user preset names the 4 MiB limit, a self-including file its own name, help foo suggests nothing")
    func misleadingMessages() throws {
        let folder = try NagiProcess.temporaryFolder()
        let patterns = folder.appendingPathComponent("config/nagi/patterns")
        try FileManager.default.createDirectory(at: patterns, withIntermediateDirectories: true)
        // 5 MiB of a JSON string: cut at 4 MiB it reads as an unclosed string.
        try Data(("{\"title\": \"" + String(repeating: "a", count: 5 << 20) + "\"}").utf8).write(to: patterns.appendingPathComponent("huge.json"))
        let huge = NagiInProcess.run(["describe", "huge"], home: folder)
        #expect(huge.status == 65, "\(huge.standardError)")
        #expect(huge.standardError.contains("larger than 4 MiB") && !huge.standardError.contains("not closed"), "\(huge.standardError)")

        try Data(#"{"stages": [{"pattern": "./selfref.json", "cycles": 1}]}"#.utf8).write(to: folder.appendingPathComponent("selfref.json"))
        let selfPath = folder.appendingPathComponent("selfref.json").path
        let selfInclude = NagiInProcess.run(["describe", selfPath], home: folder)
        #expect(selfInclude.status == 65, "\(selfInclude.standardError)")
        #expect(selfInclude.standardError.hasPrefix("nagi: error: \(selfPath): $.stages[0].pattern: "), "\(selfInclude.standardError)")
        #expect(selfInclude.standardError.contains("include itself"))

        let help = NagiInProcess.run(["help", "foo"])
        #expect(help.status == 64)
        #expect(!help.standardError.contains("did you mean"), "\(help.standardError)")
        let near = NagiInProcess.run(["help", "rendr"])
        #expect(near.standardError.contains("did you mean 'render'?"), "\(near.standardError)")
    }
}
