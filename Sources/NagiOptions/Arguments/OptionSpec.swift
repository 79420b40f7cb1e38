/// One option a command accepts: a flag (`--force`) or an option with a value (`-o FILE`).
///
/// `-h` / `--help` are built into every command by `ArgumentParser`; do not declare them.
public struct OptionSpec: Sendable, Equatable {
    /// Every spelling, dashes included, in the order help shows them, e.g. `["-o", "--output"]`.
    public var names: [String]
    /// The placeholder shown in usage (`FILE`); `nil` makes this a flag that takes no value.
    public var valueName: String?
    /// One sentence for the help listing.
    public var help: String
    /// The only values accepted, checked while parsing and listed in help; `nil` accepts any text.
    public var allowedValues: [String]?
    /// What shell completion offers for the value when `allowedValues` does not list it.
    public var completion: CompletionKind?
    /// Whether a request to `nagi serve` may give it (as the query parameter of its name without dashes). No by
    /// default, so a new option stays the command line's until someone decides it is safe over HTTP: one that names
    /// a file, a folder or the terminal's business never is.
    public var overHTTP: Bool

    public init(names: [String], valueName: String? = nil, help: String, allowedValues: [String]? = nil, completion: CompletionKind? = nil, overHTTP: Bool = false) {
        self.names = names
        self.valueName = valueName
        self.help = help
        self.allowedValues = allowedValues
        self.completion = completion
        self.overHTTP = overHTTP
    }

    /// The name values are stored under: the first `--long` spelling, else the first spelling.
    ///
    /// `ParsedArguments` accepts any spelling and maps it to this one.
    public var canonicalName: String {
        names.first { $0.hasPrefix("--") } ?? names.first ?? ""
    }

    /// Whether the option consumes a value (`-o FILE`) rather than being a flag.
    public var takesValue: Bool { valueName != nil }
}
