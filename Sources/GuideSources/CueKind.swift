/// The phase a user's cue clip belongs to, named as its file is: `inhale.*`, `hold.*`, `exhale.*`, `hold-out.*`.
public enum CueKind: String, CaseIterable, Sendable {
    case inhale
    /// A hold after an inhale (and after an exhale when the pack has no `hold-out` clip).
    case hold
    case exhale
    /// A hold after an exhale; optional in a pack.
    case holdOut = "hold-out"

    /// The file's name before its extension.
    public var baseName: String { rawValue }

    /// Whether a pack must carry this clip.
    public var isRequired: Bool { self != .holdOut }
}
