/// What a shell should offer for an option's value or a positional, beyond `allowedValues`.
public enum CompletionKind: Sendable, Equatable {
    /// Any file path.
    case file
    /// A folder path.
    case folder
    /// Pattern preset names (built-in and user) or a JSON file.
    case patterns
    /// Soundscape preset names, `auto`, or a JSON file.
    case soundscapes
    /// Course preset names or a JSON file.
    case courses
    /// Course and pattern preset names, no files: what nagi keeps a record of starts for (`--start-from-progress`).
    case sessions
    /// A command name, at the level the earlier words of the same command reached (for `nagi help`).
    case commands
    /// One of these words.
    case words([String])
}
