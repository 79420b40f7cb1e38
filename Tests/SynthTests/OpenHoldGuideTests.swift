import Breath
@testable import Synth
import Testing

/// An open hold is counted by the clock: a tick every 30 s, the minutes held spoken, nothing per second.
struct OpenHoldGuideTests {
    @Test func ticksEveryThirtySecondsAndMinutesSpoken() throws {
        let rate = 8000
        let hold = Pattern(phases: [Phase(kind: .inhale, durationMicroseconds: 2_000_000), Phase(kind: .holdOut, durationMicroseconds: 60_000_000, isOpen: true)])
        let session = Session(pattern: hold, length: .cycles(1)).withOpenPhasesLasting(Phase.openMaximumMicroseconds)
        let schedule = try Schedule(session: session, sampleRate: rate)
        let start = schedule.phases[1].startFrame
        let soundscape = try Fixtures.soundscape("horizon")

        let ticks = GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, cues: .none, count: .ticks))
        let holdTicks = ticks.events.filter { $0.phaseIndex == 1 }
        // 30 s, 1:00 … 4:30 (5:00 is the end).
        #expect(holdTicks.map(\.frame) == (1...9).map { start + Int64($0 * 30 * rate) })

        let spoken = GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, cues: .voice, count: .ticks))
        let words = spoken.events.filter { $0.phaseIndex == 1 }.compactMap { event -> String? in
            if case let .phrase(text) = event.sound { return text } else { return nil }
        }
        #expect(words == ["hold", "one minute", "two minutes", "three minutes", "four minutes"])
        #expect(spoken.requiredPhrases.contains("two minutes"))
    }
}
