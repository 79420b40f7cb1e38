/// What marks the start of a stage: a label for tables, label tracks and cue names ("6.5 breaths/min"),
/// and the words a spoken guide says there ("six and a half breaths per minute").
public struct StageLabel: Sendable, Equatable {
    /// Short text shown at the stage start.
    public var label: String
    /// What the guide speaks at the stage start; written for flite, so numbers are spelled out.
    public var announcement: String

    /// A label whose announcement is `announcement`, or the label itself when none is given.
    public init(label: String, announcement: String? = nil) {
        self.label = label
        self.announcement = announcement ?? label
    }
}
