/// What the guide may say on one phase beyond its kind: the practice model's per-phase fields
/// (`ScheduledPhase.spokenWords`, `.roundIndex`, `.stageLabel`, `.stageAnnouncement`), handed to the
/// planner in a list parallel to the schedule's phases until the schedule carries them itself.
public struct PhaseGuideText: Sendable, Equatable {
    /// The phase's own words ("say"), replacing its kind's default.
    public var spokenWords: String?
    /// The round this phase belongs to (Wim Hof), from 0; nil outside round-based sessions.
    public var roundIndex: Int?
    /// Set on the first phase of a labelled stage whose step changes ("6.5 breaths/min").
    public var stageLabel: String?
    /// The speakable form of the stage's label ("six and a half breaths a minute").
    public var stageAnnouncement: String?

    public init(spokenWords: String? = nil, roundIndex: Int? = nil, stageLabel: String? = nil, stageAnnouncement: String? = nil) {
        self.spokenWords = spokenWords
        self.roundIndex = roundIndex
        self.stageLabel = stageLabel
        self.stageAnnouncement = stageAnnouncement
    }
}
