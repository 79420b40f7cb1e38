/// What the breath does during one phase.
public enum PhaseKind: String, CaseIterable, Sendable, Codable {
    case inhale
    case holdIn
    case exhale
    case holdOut

    /// Whether the level stays put through this phase.
    public var isHold: Bool { self == .holdIn || self == .holdOut }

    /// The word shown to people: holds are both "hold".
    public var displayName: String {
        switch self {
        case .inhale: "inhale"
        case .holdIn, .holdOut: "hold"
        case .exhale: "exhale"
        }
    }

    /// The level an inhale or exhale eases to when the pattern names none.
    var defaultTargetLevel: Double? {
        switch self {
        case .inhale: 1
        case .exhale: 0
        case .holdIn, .holdOut: nil
        }
    }
}
