/// One option a command accepts: a flag (`--force`) or an option with a value (`-o FILE`).
///
/// `-h` / `--help` are built into every command by `ArgumentParser`; do not declare them. Every option is declared
/// inside NagiOptions, through the memberwise initialiser the compiler writes (internal: other modules read specs,
/// they never make them).
public struct OptionSpec: Sendable, Equatable {
    /// Every spelling, dashes included, in the order help shows them, e.g. `["-o", "--output"]`.
    public var names: [String]
    /// The placeholder shown in usage (`FILE`); `nil` makes this a flag that takes no value.
    public var valueName: String? = nil
    /// One sentence for the help listing.
    public var help: String
    /// The only values accepted, checked while parsing and listed in help; `nil` accepts any text.
    public var allowedValues: [String]? = nil
    /// What shell completion offers for the value when `allowedValues` does not list it.
    public var completion: CompletionKind? = nil
    /// Whether a request to `nagi serve` may give it (as the query parameter of its name without dashes). No by
    /// default, so a new option stays the command line's until someone decides it is safe over HTTP: one that names
    /// a file, a folder or the terminal's business never is.
    public var overHTTP: Bool = false

    /// The name values are stored under: the first `--long` spelling, else the first spelling.
    ///
    /// `ParsedArguments` accepts any spelling and maps it to this one.
    public var canonicalName: String {
        names.first { $0.hasPrefix("--") } ?? names.first ?? ""
    }

    /// Whether the option consumes a value (`-o FILE`) rather than being a flag.
    public var takesValue: Bool { valueName != nil }
}
