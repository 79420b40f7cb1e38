/// What marks each phase's start: `--cues chimes|voice|both|none`.
public enum CueMode: String, Sendable, Equatable, CaseIterable {
    /// A chime per phase kind (or the cue pack's clip in its place).
    case chimes
    /// The phase's words, spoken.
    case voice
    /// The chime and the words together.
    case both
    /// Nothing.
    case none

    /// Whether a chime (or cue-pack clip) sounds on each boundary.
    public var chimes: Bool { self == .chimes || self == .both }
    /// Whether the phase's words are spoken on each boundary.
    public var speaks: Bool { self == .voice || self == .both }
}

/// What marks the seconds inside a phase: `--count none|ticks|voice`.
public enum CountMode: String, Sendable, Equatable, CaseIterable {
    /// Nothing between boundaries.
    case none
    /// A soft tick on every whole second, its pitch falling through the phase.
    case ticks
    /// The phase word on its first frame, then "two", "three", … on each following whole second.
    case voice
}
