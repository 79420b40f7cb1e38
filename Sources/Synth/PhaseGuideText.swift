import Breath

/// What the guide may say on one phase beyond its kind: the schedule's per-phase fields
/// (`ScheduledPhase.spokenWords`, `.roundIndex`, `.stageLabel`, `.stageAnnouncement`), which the planner reads
/// from the phases unless a caller hands it others.
public struct PhaseGuideText: Sendable, Equatable {
    /// The phase's own words ("say"), replacing its kind's default.
    public var spokenWords: String?
    /// The round this phase belongs to (Wim Hof), from 0; nil outside round-based sessions.
    public var roundIndex: Int?
    /// Set on the first phase of a labelled stage whose step changes ("6.5 breaths/min").
    public var stageLabel: String?
    /// The speakable form of the stage's label ("six and a half breaths a minute").
    public var stageAnnouncement: String?

    /// The fields a scheduled phase carries.
    public init(_ phase: ScheduledPhase) {
        self.init(spokenWords: phase.spokenWords, roundIndex: phase.roundIndex, stageLabel: phase.stageLabel, stageAnnouncement: phase.stageAnnouncement)
    }

    public init(spokenWords: String? = nil, roundIndex: Int? = nil, stageLabel: String? = nil, stageAnnouncement: String? = nil) {
        self.spokenWords = spokenWords
        self.roundIndex = roundIndex
        self.stageLabel = stageLabel
        self.stageAnnouncement = stageAnnouncement
    }
}
