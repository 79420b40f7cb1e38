import Foundation
import NagiPresets
import Testing
@testable import NagiCLI
@testable import NagiOptions
@testable import NagiKit

/// Issue 46, defect 7: one rule for control and invisible characters in every text that reaches tags, playlists,
/// file names or the terminal. From a file: 65 naming the file and the JSON path, in every command that reads it;
/// from the command line: 64; the same characters everywhere (TAB, ESC, bidi controls, zero-width characters).
@Suite("One rule for control and invisible characters")
struct DisplayTextRuleTests {
    /// Hidden characters of each sort: a C0 control, TAB, a bidi override, a zero-width space, a line separator,
    /// the byte-order mark.
    static let hidden: [(name: String, scalar: String)] = [
        ("ESC", "\u{1B}"), ("TAB", "\t"), ("U+202E", "\u{202E}"), ("U+200B", "\u{200B}"), ("U+2028", "\u{2028}"), ("U+FEFF", "\u{FEFF}"),
    ]

    /// `text` as a JSON string literal, with every character below U+0020 escaped.
    static func json(_ text: String) -> String {
        NewUserFixTests.jsonString(text)
    }

    static func pattern(title: String) -> String {
        #"{"title": \#(json(title)), "phases": [{"kind": "inhale", "seconds": 2}, {"kind": "exhale", "seconds": 2}]}"#
    }

    @Test("a pattern's title or description holding one is 65 with its JSON path, for describe and render alike; nothing is written",
          arguments: hidden.map(\.scalar))
    func patternTitle(scalar: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        try Self.pattern(title: "A\(scalar)B").write(to: folder.appendingPathComponent("t.json"), atomically: true, encoding: .utf8)
        let description = #"{"title": "Fine", "description": \#(Self.json("Calm\(scalar)")), "phases": [{"kind": "inhale", "seconds": 2}, {"kind": "exhale", "seconds": 2}]}"#
        try description.write(to: folder.appendingPathComponent("d.json"), atomically: true, encoding: .utf8)
        for (file, path) in [("t.json", "$.title"), ("d.json", "$.description")] {
            let filePath = folder.appendingPathComponent(file).path
            for command in [["describe", filePath], ["render", filePath, "--cycles", "1", "-o", folder.appendingPathComponent("x.flac").path]] {
                let result = NagiInProcess.run(command, home: folder)
                #expect(result.status == 65, "\(command): \(result.standardError)")
                #expect(result.standardError.hasPrefix("nagi: error: \(filePath): \(path): ") && result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
                #expect(result.standardOutput.isEmpty)
            }
        }
        #expect(NagiProcess.names(in: folder) == ["d.json", "t.json"])
    }

    @Test("--title, --artist and --album holding one are 64", arguments: hidden.map(\.scalar))
    func commandLineTexts(scalar: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        for option in ["--title", "--artist", "--album"] {
            let result = NagiInProcess.run(["render", "box", "--cycles", "1", option, "A\(scalar)B", "-o", folder.appendingPathComponent("x.flac").path], home: folder)
            #expect(result.status == 64, "\(option): \(result.standardError)")
            #expect(result.standardError.hasPrefix("nagi: error: \(option) ") && result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        }
        #expect(NagiProcess.names(in: folder).isEmpty)
    }

    @Test("a course's title, a lesson's title and the album texts holding one are 65 with the JSON path", arguments: hidden.map(\.scalar))
    func courseTexts(scalar: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let hostile = Self.json("A\(scalar)B")
        let cases = [
            (#"{"name": "c", "title": \#(hostile), "lessons": [{"title": "One", "pattern": "2-2", "cycles": 1}]}"#, "$.title"),
            (#"{"name": "c", "title": "C", "lessons": [{"title": \#(hostile), "pattern": "2-2", "cycles": 1}]}"#, "$.lessons[0].title"),
            (#"{"name": "c", "title": "C", "artist": \#(hostile), "lessons": [{"title": "One", "pattern": "2-2", "cycles": 1}]}"#, "$.artist"),
            (#"{"name": "c", "title": "C", "description": \#(hostile), "lessons": [{"title": "One", "pattern": "2-2", "cycles": 1}]}"#, "$.description"),
        ]
        let course = folder.appendingPathComponent("c.json").path
        for (text, path) in cases {
            try text.write(toFile: course, atomically: true, encoding: .utf8)
            for command in [["course", "show", course], ["course", "export", course, "-o", folder.appendingPathComponent("album").path, "--format", "wav"]] {
                let result = NagiInProcess.run(command, home: folder)
                #expect(result.status == 65, "\(path) \(command): \(result.standardError)")
                #expect(result.standardError.hasPrefix("nagi: error: \(course): \(path): "), "\(result.standardError)")
            }
            #expect(NagiProcess.names(in: folder) == ["c.json"])
        }
    }

    @Test("a soundscape's title holding one is 65 with its JSON path")
    func soundscapeTitle() throws {
        let folder = try NagiProcess.temporaryFolder()
        let horizon = try #require(BuiltinPresets.files["soundscapes/horizon.json"])
        try horizon.replacing(#""title": "Horizon""#, with: #""title": "Hori\u202Ezon""#).write(to: folder.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        let soundscape = folder.appendingPathComponent("s.json").path
        let result = NagiInProcess.run(["render", "box", "--cycles", "1", "--soundscape", soundscape, "-o", folder.appendingPathComponent("x.wav").path], home: folder)
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("nagi: error: \(soundscape): $.title: "), "\(result.standardError)")
    }

    @Test("visible text passes: accents, CJK, emoji with joiners and variation selectors")
    func visibleTextPasses() throws {
        let folder = try NagiProcess.temporaryFolder()
        let title = "Calme · 凪 · 🧘\u{200D}♀\u{FE0F} — مرحبا"
        try Self.pattern(title: title).write(to: folder.appendingPathComponent("t.json"), atomically: true, encoding: .utf8)
        let result = NagiInProcess.run(["render", folder.appendingPathComponent("t.json").path, "--cycles", "1", "--artist", "Ann\u{00A0}Lee", "-o", folder.appendingPathComponent("x.flac").path, "--quiet"], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let tags = try TagTests.probe(folder.appendingPathComponent("x.flac").path).tags
        #expect(tags["title"]?.hasPrefix(title) == true, "\(tags)")
    }

    @Test("where text is only shown, the same characters are escaped on the terminal and dropped from file names")
    func shownTextFollowsTheSameRule() {
        for (_, scalar) in Self.hidden {
            #expect(TerminalText.printable("a\(scalar)b") != "a\(scalar)b", "\(scalar.unicodeScalars.map(\.value))")
            #expect(FileNames.safeStem("a\(scalar)b") == "ab", "\(scalar.unicodeScalars.map(\.value))")
        }
        #expect(TerminalText.printable("🧘\u{200D}♀") == "🧘\u{200D}♀")
        #expect(FileNames.safeStem("Day 1 — 凪") == "Day 1 — 凪")
    }
}
