/// One phase of a session placed on the frame clock of a sample rate.
public struct ScheduledPhase: Sendable, Equatable {
    /// What the breath does.
    public var kind: PhaseKind
    /// Start, in microseconds from the session start.
    public var startMicroseconds: Int64
    /// Length in microseconds.
    public var durationMicroseconds: Int64
    /// First frame of the phase: round(startMicroseconds × sampleRate / 10⁶).
    public var startFrame: Int64
    /// First frame after the phase (the next phase's startFrame).
    public var endFrame: Int64
    /// The level when the phase begins (the previous phase's end level; 0 at the session start).
    public var startLevel: Double
    /// The level the phase eases to.
    public var endLevel: Double
    /// Which breath cycle of the session this phase belongs to, from 0.
    public var cycleIndex: Int
    /// The phase's own words for a spoken guide (a pattern's `"say"`); nil means its kind's word.
    public var spokenWords: String? = nil
    /// Whether the phase is an open-ended hold (`Phase.isOpen`): live playback ends it on enter.
    public var isOpen = false
    /// Which repetition of the outermost repeated group (a group played twice or more, such as Wim Hof's
    /// rounds) the phase is in, from 0; nil outside any repeated group.
    public var roundIndex: Int? = nil
    /// The label of the stage this phase starts ("6.5 breaths/min"); set on a labelled stage's first phase only.
    public var stageLabel: String? = nil
    /// What a spoken guide says as this phase starts a labelled stage; set with `stageLabel` only.
    public var stageAnnouncement: String? = nil
    /// On a labelled stage's first phase, how many phases the stage holds, this one included (so its end is
    /// known: label tracks mark the whole stage); nil elsewhere.
    public var stagePhaseCount: Int? = nil

    /// End in microseconds from the session start.
    public var endMicroseconds: Int64 { startMicroseconds + durationMicroseconds }
    /// Length in frames.
    public var frameCount: Int64 { endFrame - startFrame }
}
