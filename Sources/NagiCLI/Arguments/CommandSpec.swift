/// The declarative shape of one command: what `ArgumentParser` accepts and what `UsageText` shows.
///
/// A command either has subcommands (its first non-option argument names one) or positionals,
/// not both: with subcommands present, `positionals` is ignored by the parser.
public struct CommandSpec: Sendable, Equatable {
    /// The word that selects this command (`render`); for the root, the program name (`nagi`).
    public var name: String
    /// One line for the overview and for the parent's command list.
    public var summary: String
    public var positionals: [PositionalSpec]
    public var options: [OptionSpec]
    /// Sets of option names of which at most one may be given, e.g. `[["--cycles", "--minutes"]]`.
    /// Any spelling of an option may be listed.
    public var exclusiveGroups: [[String]]
    /// Free text printed at the end of help. Lines are wrapped one by one, so author layout
    /// (examples, indented lines) survives.
    public var discussion: String?
    public var subcommands: [CommandSpec]

    public init(
        name: String,
        summary: String,
        positionals: [PositionalSpec] = [],
        options: [OptionSpec] = [],
        exclusiveGroups: [[String]] = [],
        discussion: String? = nil,
        subcommands: [CommandSpec] = []
    ) {
        self.name = name
        self.summary = summary
        self.positionals = positionals
        self.options = options
        self.exclusiveGroups = exclusiveGroups
        self.discussion = discussion
        self.subcommands = subcommands
    }

    /// The option spelled `name` (any of its spellings), if this command declares one.
    public func option(named name: String) -> OptionSpec? {
        options.first { $0.names.contains(name) }
    }

    /// The subcommand selected by `name`, if any.
    public func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}
