import Breath
import Synth

/// The words each phase speaks under a guidance, from the renderer's own `GuidePlan`, for `describe` and `plot`.
///
/// The plan decides which phases speak (a Wim Hof round's quick breaths do not) and where each phrase starts;
/// the render also leaves out a phrase whose spoken clip is longer than the rest of its phase, which only the
/// synthesized sound can tell.
package enum PhaseWords {
    /// One spoken phrase and its first frame.
    package struct Spoken: Equatable {
        package var frame: Int64
        package var words: String
    }

    /// For each phase of `schedule`, the phrases `cues` and `count` speak in it, in order.
    package static func spoken(in schedule: Schedule, soundscape: Soundscape, cues: CueMode, count: CountMode) -> [[Spoken]] {
        let plan = GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, channelCount: 1, cues: cues, count: count))
        var phases = [[Spoken]](repeating: [], count: schedule.phases.count)
        for event in plan.events {
            if case let .phrase(words) = event.sound {
                phases[event.phaseIndex].append(Spoken(frame: event.frame, words: words))
            }
        }
        return phases
    }
}
