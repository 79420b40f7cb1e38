import Breath

/// Which clip of a user's cue pack (`inhale.*`, `hold.*`, `exhale.*`, `hold-out.*`) plays on a boundary.
public enum CuePackSlot: String, Sendable, Hashable, CaseIterable {
    case inhale
    case hold
    case exhale
    case holdOut = "hold-out"

    /// The slot a phase kind asks for first.
    public static func preferred(for kind: PhaseKind) -> CuePackSlot {
        switch kind {
        case .inhale: .inhale
        case .holdIn: .hold
        case .exhale: .exhale
        case .holdOut: .holdOut
        }
    }

    /// The slot used when this one has no clip: a hold after an exhale falls back to the hold's clip.
    public var fallback: CuePackSlot? { self == .holdOut ? .hold : nil }
}
