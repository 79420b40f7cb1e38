/// One phase of a breath cycle: what the breath does, for how long, and to which level.
public struct Phase: Sendable, Equatable {
    /// What the breath does.
    public var kind: PhaseKind
    /// Length in whole microseconds (durations are exact integers, never floating seconds).
    public var durationMicroseconds: Int64
    /// The level this phase eases to, in [0, 1]; nil means the kind's default
    /// (inhale 1, exhale 0, holds keep the current level).
    public var targetLevel: Double?
    /// The phase's own words for a spoken guide ("sip in more"), in place of its kind's word; nil for the
    /// kind's word. Checked by `SpokenText`.
    public var spokenWords: String?
    /// Whether the phase is open-ended (a hold only, `"open": true`): live playback holds it until the listener
    /// presses enter (up to `Phase.openMaximumMicroseconds`); a render uses `durationMicroseconds`.
    public var isOpen: Bool

    /// The longest an open phase is held live before it ends on its own: 5 minutes.
    public static let openMaximumMicroseconds: Int64 = 5 * 60 * Microseconds.perSecond

    public init(kind: PhaseKind, durationMicroseconds: Int64, targetLevel: Double? = nil, spokenWords: String? = nil, isOpen: Bool = false) {
        self.kind = kind
        self.durationMicroseconds = durationMicroseconds
        self.targetLevel = targetLevel
        self.spokenWords = spokenWords
        self.isOpen = isOpen
    }
}
