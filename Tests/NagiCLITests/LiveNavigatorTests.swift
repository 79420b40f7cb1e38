import Foundation
import Breath
import LiveAudio
import NagiDocuments
import NagiPresets
import NagiTestSupport
import Testing
@testable import NagiCLI
@testable import NagiOptions
@testable import NagiKit
@testable import NagiLive

/// Where n, b and enter go, decided from the schedule: at the next phase boundary, a round or a breath at a time,
/// at once inside an open hold.
struct LiveNavigatorTests {
    static let rate = 8000

    /// Two rounds of 3 quick breaths (1-1), an open 2 s retention (held live up to 5 minutes) and one 1-1 breath.
    static func rounds() throws -> Schedule {
        let quick = try InlinePattern.parse("1-1")
        let hold = Pattern(phases: [Phase(kind: .holdOut, durationMicroseconds: 2_000_000, isOpen: true)])
        let session = Session(stages: [.group(count: 2, stages: [.pattern(quick, .cycles(3)), .pattern(hold, .cycles(1)), .pattern(quick, .cycles(1))])])
        return try Schedule(session: session.withOpenPhasesLasting(Phase.openMaximumMicroseconds), sampleRate: rate)
    }

    static func frame(_ seconds: Double) -> Int64 { Int64(seconds * Double(rate)) }

    /// Wim Hof at `rounds` rounds, as `--cycles` makes it.
    static func wimHof(rounds: Int) throws -> Schedule {
        let decoder = SessionDecoder(catalog: PresetCatalog(builtinFiles: BuiltinPresets.files))
        let (resolved, _) = try decoder.resolveArgument("wim-hof") { path throws(BreathError) in
            throw BreathError.fileNotFound(path: path, reason: "no files in this test")
        }
        return try Schedule(session: resolved.session.withLength(.cycles(rounds)), sampleRate: rate)
    }

    @Test("wim-hof: n skips a whole round, for one round and for many, never one quick breath", arguments: [1, 2, 3])
    func nextSkipsARound(rounds: Int) throws {
        let schedule = try Self.wimHof(rounds: rounds)
        let navigator = LiveNavigator(schedule: schedule, leadFrameCount: 80)
        let roundStarts = schedule.phases.indices.filter { $0 == 0 || schedule.phases[$0].roundIndex != schedule.phases[$0 - 1].roundIndex }
        #expect(roundStarts.count == rounds)
        // In the first quick breath, n goes to the next round's first frame (the end of the breathing in the last).
        let target = rounds > 1 ? schedule.phases[roundStarts[1]].startFrame : schedule.totalFrames
        #expect(navigator.jump(for: .nextStage, nextFrame: Self.frame(0.5)) == PlaybackJump(atFrame: Self.frame(1.5), toFrame: target))
    }

    @Test func skipsGoByRoundAtTheNextBoundaryAndEnterEndsOnlyAnOpenHold() throws {
        let schedule = try Self.rounds()
        #expect(schedule.phases[6].isOpen && schedule.phases[6].frameCount == Self.frame(300))
        let navigator = LiveNavigator(schedule: schedule, leadFrameCount: 80)
        let roundTwo = schedule.phases[9].startFrame
        #expect(roundTwo == Self.frame(308))

        #expect(navigator.jump(for: .nextStage, nextFrame: Self.frame(1.5)) == PlaybackJump(atFrame: Self.frame(2), toFrame: roundTwo))
        #expect(navigator.jump(for: .stageStart, nextFrame: Self.frame(2.5)) == PlaybackJump(atFrame: Self.frame(3), toFrame: 0))
        // A boundary too near for the fade before it: the one after.
        #expect(navigator.jump(for: .nextStage, nextFrame: Self.frame(2) - 40) == PlaybackJump(atFrame: Self.frame(3), toFrame: roundTwo))
        #expect(navigator.jump(for: .endHold, nextFrame: Self.frame(1.5)) == nil, "enter outside an open hold does nothing")

        // Inside the open hold: at once.
        #expect(navigator.jump(for: .endHold, nextFrame: Self.frame(10)) == PlaybackJump(atFrame: Self.frame(10), toFrame: Self.frame(306)))
        #expect(navigator.jump(for: .nextStage, nextFrame: Self.frame(10)) == PlaybackJump(atFrame: Self.frame(10), toFrame: roundTwo))
        #expect(navigator.jump(for: .stageStart, nextFrame: Self.frame(10)) == PlaybackJump(atFrame: Self.frame(10), toFrame: 0))

        // n in the last round ends the breathing at the next boundary; b goes back to its start.
        #expect(navigator.jump(for: .nextStage, nextFrame: Self.frame(309.5)) == PlaybackJump(atFrame: Self.frame(310), toFrame: schedule.totalFrames))
        #expect(navigator.jump(for: .stageStart, nextFrame: Self.frame(309.5)) == PlaybackJump(atFrame: Self.frame(310), toFrame: roundTwo))
        #expect(navigator.jump(for: .nextStage, nextFrame: schedule.totalFrames) == nil, "nothing to skip in the release")
        #expect(navigator.jump(for: .volumeUp, nextFrame: Self.frame(1.5)) == nil)
    }

    @Test func aSinglePatternSkipsByBreath() throws {
        let schedule = try Schedule(session: Session(pattern: try InlinePattern.parse("4-7-8"), length: .cycles(3)), sampleRate: Self.rate)
        let navigator = LiveNavigator(schedule: schedule, leadFrameCount: 80)
        // In the first breath's hold: on to the second breath when the hold ends (skipping the breath out).
        #expect(navigator.jump(for: .nextStage, nextFrame: Self.frame(6)) == PlaybackJump(atFrame: Self.frame(11), toFrame: Self.frame(19)))
        // In the second breath's breath out, n goes where playback goes anyway: no jump.
        #expect(navigator.jump(for: .nextStage, nextFrame: Self.frame(35)) == nil)
        #expect(navigator.jump(for: .stageStart, nextFrame: Self.frame(35)) == PlaybackJump(atFrame: Self.frame(38), toFrame: Self.frame(19)))
    }
}

/// The live options a user can get wrong, refused before any device opens; the progress record keeps retentions.
struct LiveOptionTests {
    @Test("bad --volume, --retention open without a retention, and an unwritable --log are one-line errors")
    func badLiveOptions() throws {
        for (arguments, status) in [(["--volume", "7"], Int32(64)), (["--volume", "-31"], 64), (["--volume", "loud"], 64),
                                    (["--retention", "open"], 64), (["--retention", "closed"], 64),
                                    (["--log", "/nonexistent-folder/holds.jsonl"], 73)] {
            // Refused while reading the options, before play opens ALSA: a run in process like any other.
            let result = NagiInProcess.run(["play", "box", "--device", "file:'/dev/null',raw"] + arguments)
            #expect(result.status == status, "\(arguments): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(arguments): \(result.standardError)")
        }
    }

    @Test func theProgressRecordKeepsRetentionsAndSkips() throws {
        let record = CourseProgress(course: "c", completions: [
            .init(lessonIndex: 0, title: "One", completedAt: "2026-12-01T07:00:00Z", retentionMilliseconds: [61_234, 75_010], skipCount: 2),
            .init(lessonIndex: 1, title: "Two", completedAt: "2026-12-02T07:00:00Z"),
        ])
        let text = JSONOutput.document(record)
        let written = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        let completed = try #require(written["completed"] as? [[String: Any]], "\(text)")
        #expect(completed.count == 2)
        #expect(completed[0]["retentionMs"] as? [Int] == [61_234, 75_010] && completed[0]["skips"] as? Int == 2, "\(text)")
        // A lesson with no holds and no skips writes neither key, as records written before they were kept.
        #expect(completed[1]["retentionMs"] == nil && completed[1]["skips"] == nil && completed[1]["startedAt"] == nil, "\(text)")
        #expect(try CourseProgress.decode(text, file: "p.json") == record)
        #expect(throws: ContentError.self) { try CourseProgress.decode(text.replacing("61234", with: "-1"), file: "p.json") }
    }

    @Test("a progress record in the form written before the one encoder (keys unsorted, spaced) still reads")
    func theOldProgressFormStillReads() throws {
        let old = #"""
            {
              "course": "c",
              "completed": [
                {"lesson": 1, "title": "One \\ \"quoted\"\n", "completedAt": "2026-12-01T07:00:00Z", "startedAt": "2026-12-01T08:00:01.250+01:00", "retentionMs": [61234, 75010], "skips": 2},
                {"lesson": 2, "title": "Two", "completedAt": "2026-12-02T07:00:00Z"}
              ]
            }

            """#
        let record = try CourseProgress.decode(old, file: "p.json")
        #expect(record == CourseProgress(course: "c", completions: [
            .init(lessonIndex: 0, title: "One \\ \"quoted\"\n", completedAt: "2026-12-01T07:00:00Z", startedAt: "2026-12-01T08:00:01.250+01:00",
                  retentionMilliseconds: [61_234, 75_010], skipCount: 2),
            .init(lessonIndex: 1, title: "Two", completedAt: "2026-12-02T07:00:00Z"),
        ]))
        // Written again by the encoder, it reads back the same.
        #expect(try CourseProgress.decode(JSONOutput.document(record), file: "p.json") == record)
    }
}
