/// What marks each phase's start (the command line's `--cues`, a lesson's `"cues"`): one vocabulary for the
/// breath model, the documents and the sound.
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

/// What marks the seconds inside a phase (`--count`, a lesson's `"count"`).
public enum CountMode: String, Sendable, Equatable, CaseIterable {
    /// Nothing between boundaries.
    case none
    /// A soft tick on every whole second, its pitch falling through the phase.
    case ticks
    /// The phase word on its first frame, then "two", "three", … on each following whole second.
    case voice
}

/// The ranges and defaults of the sound's settings that the documents check and the sound applies, stated once:
/// a course lesson is held to exactly what the renderer takes.
public enum SoundSettingRanges {
    /// A bed's level, LU against the session's −20 LUFS.
    public static let bedLevelDecibels: ClosedRange<Double> = -40...0
    /// A bed's level when none is given.
    public static let defaultBedLevelDecibels = -12.0
    /// How far the guide's sounds may move, dB.
    public static let cueVolumeDecibels: ClosedRange<Double> = -30...12
}
