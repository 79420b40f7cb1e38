import NagiBase
import NagiPresets
import Testing
@testable import Breath
import NagiDocuments

/// The fields a spoken guide reads from the schedule: a phase's own words, its round, and stage labels.
@Suite("Guide fields: words, rounds and stage labels")
struct GuideFieldTests {
    static let decoder = SessionDecoder(catalog: PresetCatalog(builtinFiles: BuiltinPresets.files))

    static func schedule(_ text: String) throws -> Schedule {
        let value = try JSONParser.parse(text, file: "guide.json")
        return try Schedule(session: decoder.decodeDocument(value, file: "guide.json").session, sampleRate: 48_000)
    }

    static func schedule(preset name: String) throws -> Schedule {
        let (resolved, _) = try decoder.resolveArgument(name) { path throws(BreathError) in
            throw BreathError.fileNotFound(path: path, reason: "no files in this test")
        }
        return try Schedule(session: resolved.session, sampleRate: 48_000)
    }

    /// The reason of a content error, or nil for any other outcome.
    static func contentError(_ text: String) -> (path: String, reason: String)? {
        do {
            _ = try schedule(text)
            return nil
        } catch let error as ContentError {
            #expect(error.category == .badData)
            return (error.path, error.reason)
        } catch {
            return nil
        }
    }

    @Test("the sigh's second inhale says \"sip in more\" in every cycle; its other phases have no words of their own")
    func sighWords() throws {
        let schedule = try Self.schedule(preset: "sigh")
        #expect(schedule.phases.count == 15)
        for (index, phase) in schedule.phases.enumerated() {
            #expect(phase.spokenWords == (index % 3 == 1 ? "sip in more" : nil), "phase \(index)")
        }
    }

    @Test("wim-hof numbers its three rounds 0, 1, 2 on every phase of each round")
    func wimHofRounds() throws {
        let schedule = try Self.schedule(preset: "wim-hof")
        let perRound = schedule.phases.count / 3
        #expect(perRound * 3 == schedule.phases.count)
        for (index, phase) in schedule.phases.enumerated() {
            #expect(phase.roundIndex == index / perRound, "phase \(index)")
        }
        #expect(schedule.phases[perRound].kind == .inhale)
        #expect(schedule.phases[perRound - 1].kind == .exhale)
    }

    @Test("a single pattern and a group played once have no rounds; nested repeats count the outermost group")
    func roundsOnlyInRepeatedGroups() throws {
        #expect(try Self.schedule(preset: "box").phases.allSatisfy { $0.roundIndex == nil })
        let once = try Self.schedule(#"{"stages": [{"repeat": 1, "stages": [{"pattern": "4-4", "cycles": 2}]}]}"#)
        #expect(once.phases.allSatisfy { $0.roundIndex == nil })
        let nested = try Self.schedule(#"""
            {"stages": [{"pattern": "2-2", "cycles": 1},
                        {"repeat": 2, "stages": [{"repeat": 3, "stages": [{"pattern": "1-1", "cycles": 1}]}]},
                        {"pattern": "3-3", "cycles": 1}]}
            """#)
        #expect(nested.phases.map(\.roundIndex) == [nil, nil, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, nil, nil])
    }

    @Test("a stage label and its announcement sit on the stage's first phase only, each time the stage plays")
    func stageLabels() throws {
        let schedule = try Self.schedule(#"""
            {"stages": [{"pattern": "2-2", "cycles": 2, "label": "warm up"},
                        {"repeat": 2, "stages": [{"pattern": "1-1", "cycles": 2, "label": "6.5 breaths/min", "announce": "six and a half"}]},
                        {"pattern": "3-3", "cycles": 1}]}
            """#)
        #expect(schedule.phases.map(\.stageLabel) == ["warm up", nil, nil, nil, "6.5 breaths/min", nil, nil, nil, "6.5 breaths/min", nil, nil, nil, nil, nil])
        #expect(schedule.phases[0].stageAnnouncement == "warm up")
        #expect(schedule.phases[4].stageAnnouncement == "six and a half")
        #expect(schedule.phases[8].stageAnnouncement == "six and a half")
        #expect(schedule.phases.filter { $0.stageAnnouncement != nil }.count == 3)
        #expect(schedule.phases.map(\.stagePhaseCount) == [4, nil, nil, nil, 4, nil, nil, nil, 4, nil, nil, nil, nil, nil])
    }

    @Test("a label nested at the same start as another wins, with its own stage's phase count")
    func nestedLabels() throws {
        let schedule = try Self.schedule(#"""
            {"stages": [{"label": "outer", "repeat": 1, "stages": [{"pattern": "1-1", "cycles": 1, "label": "inner"}, {"pattern": "2-2", "cycles": 2}]}]}
            """#)
        #expect(schedule.phases.map(\.stageLabel) == ["inner", nil, nil, nil, nil, nil])
        #expect(schedule.phases.map(\.stagePhaseCount) == [2, nil, nil, nil, nil, nil])
    }

    @Test("a ramp carries a phase's words from its start pattern into every cycle")
    func rampWords() throws {
        let schedule = try Self.schedule(#"""
            {"stages": [{"ramp": {"from": {"phases": [{"kind": "inhale", "seconds": 4, "say": "in slowly"}, {"kind": "exhale", "seconds": 4}]},
                                  "to": {"phases": [{"kind": "inhale", "seconds": 4}, {"kind": "exhale", "seconds": 8}]}}, "cycles": 3}]}
            """#)
        #expect(schedule.phases.map(\.spokenWords) == ["in slowly", nil, "in slowly", nil, "in slowly", nil])
    }

    @Test("words of 60 characters pass; 61, empty, a newline, a bidi override or a non-string are refused at their JSON path")
    func badWords() throws {
        let sixty = String(repeating: "a", count: 60)
        #expect(try Self.schedule(#"{"phases": [{"kind": "inhale", "seconds": 4, "say": "\#(sixty)"}]}"#).phases[0].spokenWords == sixty)
        // Characters, not bytes: 60 accented letters pass.
        let accented = String(repeating: "é", count: 60)
        #expect(try Self.schedule(#"{"phases": [{"kind": "inhale", "seconds": 4, "say": "\#(accented)"}]}"#).phases[0].spokenWords == accented)
        let cases: [(say: String, fragment: String)] = [
            ("\"\(sixty)a\"", "61 characters"),
            ("\"\"", "empty"),
            ("\"   \"", "empty"),
            ("\"breathe\\nin\"", "U+000A"),
            ("\"breathe\\u202Ein\"", "U+202E"),
            ("\"breathe\\u200Bin\"", "U+200B"),
            ("\"breathe\\tin\"", "U+0009"),
            ("4", "expected a string"),
        ]
        for (say, fragment) in cases {
            let error = Self.contentError(#"{"phases": [{"kind": "inhale", "seconds": 4}, {"kind": "exhale", "seconds": 4, "say": \#(say)}]}"#)
            #expect(error?.path == "$.phases[1].say", "\(say)")
            #expect(error?.reason.contains(fragment) == true, "\(say): \(error?.reason ?? "accepted")")
        }
        let label = Self.contentError(#"{"stages": [{"pattern": "4-4", "cycles": 1, "label": "\#(sixty)!"}]}"#)
        #expect(label?.path == "$.stages[0].label")
        let announcement = Self.contentError(#"{"stages": [{"pattern": "4-4", "cycles": 1, "announce": "hello"}]}"#)
        #expect(announcement?.path == "$.stages[0].announce")
        #expect(announcement?.reason.contains("label") == true)
    }

    @Test("a pattern with words has no inline notation, so nothing writes it back without them")
    func wordsKeepPatternsOutOfInlineNotation() throws {
        var pattern = try InlinePattern.parse("4-4")
        #expect(pattern.inlineNotation == "4-4")
        pattern.phases[0].spokenWords = "in"
        #expect(pattern.inlineNotation == nil)
    }
}
