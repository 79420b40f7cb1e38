import NagiPresets
import Testing
@testable import Breath
import NagiDocuments

/// Open-ended holds: `"open": true` in a document, `--retention open`'s marking, and the live schedule's stretch.
struct OpenHoldTests {
    static func session(_ text: String) throws -> Session {
        try GuideFieldTests.decoder.decodeDocument(try JSONParser.parse(text, file: "open.json"), file: "open.json").session
    }

    @Test func aHoldMayBeOpenAndKeepsItsStatedLengthOutsidePlay() throws {
        let session = try Self.session(#"{"phases": [{"kind": "inhale", "seconds": 4}, {"kind": "holdIn", "seconds": 7, "open": true}, {"kind": "exhale", "seconds": 8}], "cycles": 2}"#)
        let stated = try Schedule(session: session, sampleRate: 8000)
        #expect(stated.phases.map(\.isOpen) == [false, true, false, false, true, false])
        #expect(stated.totalMicroseconds == 38_000_000)
        // Live: every open hold at 5 minutes, the same two breaths.
        let live = try Schedule(session: session.withOpenPhasesLasting(Phase.openMaximumMicroseconds), sampleRate: 8000)
        #expect(live.phases.map(\.durationMicroseconds) == [4_000_000, 300_000_000, 8_000_000, 4_000_000, 300_000_000, 8_000_000])
        #expect(session.hasOpenPhases)
    }

    @Test func onlyAHoldCanBeOpen() {
        let reason = GuideFieldTests.contentError(#"{"phases": [{"kind": "inhale", "seconds": 4, "open": true}, {"kind": "exhale", "seconds": 4}]}"#)
        #expect(reason?.path == "$.phases[0].open", "\(String(describing: reason))")
        #expect(reason?.reason.contains("only a hold") == true)
        let notBoolean = GuideFieldTests.contentError(#"{"phases": [{"kind": "holdIn", "seconds": 4, "open": "yes"}, {"kind": "exhale", "seconds": 4}]}"#)
        #expect(notBoolean?.path == "$.phases[0].open")
    }

    @Test func openRetentionMarksWimHofsRetentionsOnly() throws {
        let (resolved, _) = try GuideFieldTests.decoder.resolveArgument("wim-hof") { path throws(BreathError) in
            throw BreathError.fileNotFound(path: path, reason: "no files in this test")
        }
        let open = try #require(resolved.session.withOpenRetention())
        let schedule = try Schedule(session: open, sampleRate: 8000)
        let marked = schedule.phases.filter(\.isOpen)
        #expect(marked.count == 3 && marked.allSatisfy { $0.kind == .holdOut && $0.durationMicroseconds == 60_000_000 })
        #expect(!resolved.session.hasOpenPhases)
        // 4-7-8 has no retention of its own to open.
        #expect(Session(pattern: try InlinePattern.parse("4-7-8-2")).withOpenRetention() == nil)
    }
}
