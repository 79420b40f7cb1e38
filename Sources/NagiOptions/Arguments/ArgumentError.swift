/// A command line that cannot be accepted, as data. `UsageText.message(for:)` renders it.
///
/// Option names are quoted as the user spelled them (`-o` or `--output`), without any `=value`.
public enum ArgumentError: Error, Equatable, Sendable {
    /// An option the command does not declare, with the nearest declared spelling if one is close.
    case unknownOption(String, suggestion: String?)
    /// An option that needs a value came last, or was followed by another known option or `--`.
    case missingValue(option: String)
    /// The same option (in any spelling) was given twice.
    case repeatedOption(String)
    /// Two options of one exclusive group, in command-line order.
    case conflictingOptions(String, String)
    /// A value beyond the declared positionals.
    case unexpectedArgument(String)
    /// A required positional, by its placeholder name (`PATTERN`).
    case missingArgument(String)
    /// A value the option does not accept; `expected` says what it would accept
    /// (`a whole number from 1 to 10000`, `one of: wav, flac`, `no value (it is a flag)`).
    case invalidValue(option: String, value: String, expected: String)
    /// A word in a subcommand's place that names none, with the nearest command if one is close.
    case unknownCommand(String, suggestion: String?)
}
