/// Options that belong together (the session's length, the sound, the output), declared once and
/// attached to every command that takes them, like swift-argument-parser's `OptionGroup`.
///
/// A group owns its specs and its exclusive sets, so a command that takes the group cannot take
/// half of its rules: `course next` refuses `--cycles 1 --minutes 5` exactly as `play` does.
public struct OptionGroup: Sendable, Equatable {
    /// A heading for the manual page ("Session length").
    public var title: String
    public var options: [OptionSpec]
    /// Sets of option names of which at most one may be given.
    public var exclusiveGroups: [[String]]

    public init(title: String, options: [OptionSpec], exclusiveGroups: [[String]] = []) {
        self.title = title
        self.options = options
        self.exclusiveGroups = exclusiveGroups
    }
}
