/// One positional argument a command accepts, e.g. `PATTERN`.
public struct PositionalSpec: Sendable, Equatable {
    /// The placeholder shown in usage and in `missingArgument` errors, e.g. `PATTERN`.
    public var name: String
    /// One sentence for the help listing.
    public var help: String
    /// Optional positionals must come after every required one.
    public var isOptional: Bool
    /// What shell completion offers here.
    public var completion: CompletionKind?

    public init(name: String, help: String, isOptional: Bool = false, completion: CompletionKind? = nil) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.completion = completion
    }
}
