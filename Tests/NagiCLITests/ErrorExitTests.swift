import Foundation
import NagiPresets
import Testing

@Suite("Errors: one line, the right exit code, never a crash")
struct ErrorExitTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var status: Int32
        var mentions: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let commandLineCases: [Case] = [
        Case(arguments: ["describe", "4-x-8"], status: 64, mentions: "4-x-8"),
        Case(arguments: ["describe", "4--8"], status: 64, mentions: "4--8"),
        Case(arguments: ["describe", "0-0"], status: 64, mentions: "0-0"),
        Case(arguments: ["describe", "0-0-0-4"], status: 64, mentions: "never breathes in"),
        Case(arguments: ["describe", "0-4"], status: 64, mentions: "never breathes in"),
        Case(arguments: ["describe", "0-4-0"], status: 64, mentions: "never breathes in"),
        Case(arguments: ["describe", "4-7-0"], status: 64, mentions: "never breathes out"),
        Case(arguments: ["describe", "4-7-8-1-1"], status: 64, mentions: "4-7-8-1-1"),
        Case(arguments: ["describe", "4-0.0000001"], status: 64, mentions: "0.0000001"),
        Case(arguments: ["describe", "４-７-８"], status: 64, mentions: "４-７-８"),
        Case(arguments: ["describe", "4-٧-8"], status: 64, mentions: "4-٧-8"),
        Case(arguments: ["describe", "boxx"], status: 66, mentions: "box"),
        Case(arguments: ["describe", "/no/such/file.json"], status: 66, mentions: "/no/such/file.json"),
        // No PATTERN is 4-7-8 (DefaultPatternTests), which --ratio cannot repace.
        Case(arguments: ["describe", "--ratio", "2:3"], status: 64, mentions: "'4-7-8' is not"),
        Case(arguments: ["describe", "box", "--cycles", "0"], status: 64, mentions: "--cycles"),
        Case(arguments: ["describe", "box", "--cycles", "-3"], status: 64, mentions: "--cycles"),
        Case(arguments: ["describe", "box", "--cycles", "NaN"], status: 64, mentions: "NaN"),
        Case(arguments: ["describe", "box", "--minutes", "inf"], status: 64, mentions: "inf"),
        Case(arguments: ["describe", "box", "--minutes", "-1"], status: 64, mentions: "--minutes"),
        Case(arguments: ["describe", "box", "--minutes", "525600"], status: 64, mentions: "525600"),
        Case(arguments: ["describe", "box", "--cycles", "99999999999999999999"], status: 64, mentions: "--cycles"),
        Case(arguments: ["describe", "box", "--cycles", "400000"], status: 64, mentions: "24 hours"),
        Case(arguments: ["describe", "box", "--cycles", "2", "--minutes", "3"], status: 64, mentions: "--minutes"),
        Case(arguments: ["describe", "box", "--cycles", "2", "--cycles", "3"], status: 64, mentions: "--cycles"),
        Case(arguments: ["describe", "box", "--rate", "7999"], status: 64, mentions: "--rate"),
        Case(arguments: ["describe", "box", "--rate", "192001"], status: 64, mentions: "--rate"),
        Case(arguments: ["describe", "box", "--rate"], status: 64, mentions: "--rate"),
        Case(arguments: ["describe", "box", "--bogus"], status: 64, mentions: "--bogus"),
        Case(arguments: ["describe", "box", "extra"], status: 64, mentions: "extra"),
        Case(arguments: ["frobnicate"], status: 64, mentions: "frobnicate"),
    ]

    @Test("bad command lines", arguments: commandLineCases)
    func badCommandLine(testCase: Case) throws {
        let result = NagiInProcess.run(testCase.arguments)
        #expect(result.status == testCase.status, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "expected one line, got: \(result.standardError)")
        #expect(result.standardError.hasPrefix("nagi: error: "))
        #expect(result.standardError.contains(testCase.mentions))
    }

    struct FileCase: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var mentions: String
        var testDescription: String { name }
    }

    static func text(_ name: String, _ json: String, _ mentions: String) -> FileCase {
        FileCase(name: name, bytes: Array(json.utf8), mentions: mentions)
    }

    static let fileCases: [FileCase] = [
        text("empty", "", "empty"),
        text("not JSON", "phases: 4-7-8", "line 1"),
        text("unknown key", #"{"phases": [{"kind": "inhale", "seconds": 4}], "minuts": 5}"#, "minuts"),
        text("unknown phase key", #"{"phases": [{"kind": "inhale", "second": 4}]}"#, "$.phases[0].second"),
        text("wrong kind", #"{"phases": [{"kind": "inhal", "seconds": 4}]}"#, "$.phases[0].kind"),
        text("wrong type", #"{"phases": [{"kind": "inhale", "seconds": "4"}]}"#, "$.phases[0].seconds"),
        text("negative", #"{"phases": [{"kind": "inhale", "seconds": -4}]}"#, "$.phases[0].seconds"),
        text("huge", #"{"phases": [{"kind": "inhale", "seconds": 1e300}]}"#, "$.phases[0].seconds"),
        text("sub-microsecond", #"{"phases": [{"kind": "inhale", "seconds": 0.0000001}]}"#, "$.phases[0].seconds"),
        text("year-long", #"{"phases": [{"kind": "inhale", "seconds": 31536000}]}"#, "24-hour"),
        text("hold with a level", #"{"phases": [{"kind": "holdIn", "seconds": 4, "to": 0.5}]}"#, "$.phases[0].to"),
        text("level above 1", #"{"phases": [{"kind": "inhale", "seconds": 4, "to": 1.5}]}"#, "$.phases[0].to"),
        text("only a hold", #"{"phases": [{"kind": "holdIn", "seconds": 4}]}"#, "$.phases: the pattern never breathes in"),
        text("never exhales", #"{"phases": [{"kind": "inhale", "seconds": 4}, {"kind": "holdIn", "seconds": 4}, {"kind": "exhale", "seconds": 0}]}"#, "$.phases: the pattern never breathes out"),
        text("a session of holds", #"{"stages": [{"pattern": {"phases": [{"kind": "holdOut", "seconds": 60}]}, "cycles": 2}]}"#, "$.stages: the session never breathes in"),
        text("an inline stage without an exhale", #"{"stages": [{"pattern": "4-4-0", "cycles": 2}]}"#, "$.stages[0].pattern"),
        text("no phases", #"{"phases": []}"#, "$.phases"),
        text("million repeats", #"{"stages": [{"repeat": 1000000, "stages": [{"pattern": "4-4", "cycles": 1000}]}]}"#, "$.stages[0].repeat"),
        text("repeats beyond a day", #"{"stages": [{"repeat": 100000, "stages": [{"pattern": "4-4", "cycles": 1000}]}]}"#, "24 hours"),
        text("nested repeats beyond a day", #"{"stages": [{"repeat": 500000, "stages": [{"repeat": 500000, "stages": [{"pattern": "4-4", "cycles": 500000}]}]}]}"#, "24 hours"),
        text("bad inline inside", #"{"stages": [{"pattern": "4-x", "cycles": 2}]}"#, "$.stages[0].pattern"),
        text("unknown preset inside", #"{"stages": [{"pattern": "boxx", "cycles": 2}]}"#, "box"),
        text("stage without length", #"{"stages": [{"pattern": {"phases": [{"kind": "inhale", "seconds": 1}]}}]}"#, "$.stages[0]"),
        text("ramp of unlike patterns", #"{"stages": [{"ramp": {"from": {"phases": [{"kind": "exhale", "seconds": 1}, {"kind": "inhale", "seconds": 1}]}, "to": "4-4"}, "cycles": 3}]}"#, "$.stages[0].ramp"),
        text("both lengths", #"{"minutes": 2, "cycles": 3, "phases": [{"kind": "inhale", "seconds": 1}]}"#, "$.cycles"),
        text("bad easing", #"{"easing": [0, 0, 2, 1], "phases": [{"kind": "inhale", "seconds": 1}]}"#, "$.easing"),
        text("duplicate key", #"{"phases": [{"kind": "inhale", "seconds": 1}], "phases": []}"#, "twice"),
        text("top-level array", #"[1, 2]"#, "expected an object"),
        text("deep nesting", String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000), "nested deeper"),
        FileCase(name: "BOM", bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"phases": [{"kind": "inhale", "seconds": 1}]}"#.utf8), mentions: "byte-order mark"),
        FileCase(name: "not UTF-8", bytes: Array(#"{"title": ""#.utf8) + [0xFF, 0xFE] + Array(#"", "phases": []}"#.utf8), mentions: "UTF-8"),
    ]

    @Test("bad JSON files exit 65 naming the file and the JSON path", arguments: fileCases)
    func badFile(testCase: FileCase) throws {
        let folder = try NagiProcess.temporaryFolder()
        let file = folder.appendingPathComponent("bad.json")
        try Data(testCase.bytes).write(to: file)
        let result = NagiInProcess.run(["describe", file.path])
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("bad.json"))
        #expect(result.standardError.contains(testCase.mentions), "\(result.standardError)")
    }

    @Test("a huge or hostile token is quoted shortened, on one printable line")
    func hostileTokensInErrorLines() throws {
        let folder = try NagiProcess.temporaryFolder()
        let file = folder.appendingPathComponent("huge-name.json")
        let hugeName = String(repeating: "a", count: 2_000_000)
        try Data(#"{"stages": [{"pattern": "\#(hugeName)", "cycles": 2}]}"#.utf8).write(to: file)
        let cases: [(arguments: [String], status: Int32, mentions: String)] = [
            (["describe", file.path], 65, "$.stages[0].pattern"),
            (["describe", String(repeating: "b", count: 100_000)], 66, "nagi presets"),
            (["describe", "box", "--rate", String(repeating: "9", count: 100_000)], 64, "--rate"),
            (["describe", folder.appendingPathComponent("a\u{1B}[2J\u{1B}]0;owned\u{07}b.json").path], 66, #"a\u{1B}[2J"#),
            (["render", "box", "--cycles", "1", "-o", folder.appendingPathComponent("no\u{202E}such/x\ny.wav").path], 73, #"no\u{202E}such/x\ny.wav"#),
        ]
        for (arguments, status, mentions) in cases {
            let result = NagiInProcess.run(arguments, home: folder)
            #expect(result.status == status, "\(result.standardError.prefix(300))")
            #expect(result.standardError.hasPrefix("nagi: error: "))
            #expect(result.standardError.split(separator: "\n").count == 1)
            #expect(result.standardError.count < 1000, "\(result.standardError.count) characters")
            #expect(!result.standardError.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
            #expect(result.standardError.contains(mentions), "\(result.standardError)")
        }
        let created = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(created == ["huge-name.json"])
    }

    /// The built-in horizon soundscape with `old` replaced by `new` (which must occur once).
    static func horizon(replacing old: String, with new: String) -> String {
        let text = BuiltinPresets.files["soundscapes/horizon.json"] ?? ""
        #expect(text.components(separatedBy: old).count == 2, "'\(old)' is not in horizon.json once")
        return text.replacingOccurrences(of: old, with: new)
    }

    @Test("bad soundscape files exit 65 naming the file and the JSON path, and no audio file appears")
    func badSoundscape() throws {
        let cases: [(name: String, text: String, mentions: String)] = [
            ("empty", "", "empty"),
            ("unknown key", Self.horizon(replacing: #""masterGainDecibels""#, with: #""masterGainDecibel""#), "masterGainDecibel"),
            ("huge gain", Self.horizon(replacing: #""masterGainDecibels": -0.2"#, with: #""masterGainDecibels": 1e300"#), "$.masterGainDecibels"),
            ("zero frequency", Self.horizon(replacing: #""lowFrequencyHz": 196.0"#, with: #""lowFrequencyHz": 0"#), "$.tone.lowFrequencyHz"),
            ("wrong type", Self.horizon(replacing: #""lagSeconds": 0.2"#, with: #""lagSeconds": "0.2""#), "$.trail.lagSeconds"),
            ("missing key", Self.horizon(replacing: #""title": "Horizon","#, with: ""), "title"),
            ("empty harmonics", Self.horizon(replacing: #""harmonics": [1, 0.12]"#, with: #""harmonics": []"#), "$.trail.harmonics"),
            ("top-level array", "[]", "expected an object"),
        ]
        for testCase in cases {
            let folder = try NagiProcess.temporaryFolder()
            try Data(testCase.text.utf8).write(to: folder.appendingPathComponent("bad-soundscape.json"))
            let result = NagiInProcess.run(["render", "box", "--cycles", "1", "--soundscape", folder.appendingPathComponent("bad-soundscape.json").path, "-o", folder.appendingPathComponent("x.wav").path], home: folder)
            #expect(result.status == 65, "\(testCase.name): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(testCase.name): \(result.standardError)")
            #expect(result.standardError.contains("bad-soundscape.json"), "\(testCase.name): \(result.standardError)")
            #expect(result.standardError.contains(testCase.mentions), "\(testCase.name): \(result.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["bad-soundscape.json"], "\(testCase.name)")
        }
    }
}
