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
    /// Every option, the groups' first (in group order), then the command's own.
    public var options: [OptionSpec]
    /// The option groups the command takes, for headings in the manual page.
    public var groups: [OptionGroup]
    /// Sets of option names of which at most one may be given, e.g. `[["--cycles", "--minutes"]]`,
    /// the groups' sets included. Any spelling of an option may be listed.
    public var exclusiveGroups: [[String]]
    /// Free text printed at the end of help. Lines are wrapped one by one, so author layout
    /// (examples, indented lines) survives.
    public var discussion: String?
    public var subcommands: [CommandSpec]

    public init(
        name: String,
        summary: String,
        positionals: [PositionalSpec] = [],
        groups: [OptionGroup] = [],
        options: [OptionSpec] = [],
        exclusiveGroups: [[String]] = [],
        discussion: String? = nil,
        subcommands: [CommandSpec] = []
    ) {
        self.name = name
        self.summary = summary
        self.positionals = positionals
        self.groups = groups
        self.options = groups.flatMap(\.options) + options
        self.exclusiveGroups = groups.flatMap(\.exclusiveGroups) + exclusiveGroups
        assert(Set(self.options.flatMap(\.names)).count == self.options.flatMap(\.names).count, "an option of '\(name)' is declared twice")
        self.discussion = discussion
        self.subcommands = subcommands
    }

    /// The option spelled `name` (any of its spellings), if this command declares one.
    public func option(named name: String) -> OptionSpec? {
        options.first { $0.names.contains(name) }
    }

    /// The options the command declares itself, outside its groups.
    public var ownOptions: [OptionSpec] {
        Array(options.dropFirst(groups.reduce(0) { $0 + $1.options.count }))
    }

    /// The subcommand selected by `name`, if any.
    public func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}
