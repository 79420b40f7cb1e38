/// Interprets argv against a `CommandSpec`, in two steps: `SplitArguments` cuts argv into tokens, `interpret` reads
/// the tokens (a server's request gives its tokens straight to `interpret`: it has no text to cut).
///
/// Rules, in the order a reader meets them:
/// - The first bare `--` ends options; everything after it is positional.
/// - `-h` / `--help` are built into every command: parsing stops there and returns
///   `isHelpRequested`. Errors in earlier tokens are still reported first.
/// - An option that takes a value reads it from `--name=value` / `-o=value`, or else from the next
///   token, even one starting with `-` (so `--seed -3` works) unless that token is itself a known
///   option of the command (or `--`): then the value is missing. `--title --force` is therefore
///   `missingValue(option: "--title")`; write `--title=--force` to mean the text.
///   `--name=` gives the empty value, which the typed readers reject.
/// - A flag given a value (`--force=yes`) is `invalidValue`.
/// - An option given twice, in any spelling, is `repeatedOption`; two of one exclusive group are
///   `conflictingOptions`. Both are reported where the second one appears.
/// - A command with subcommands takes its first non-option word as the subcommand name; options
///   after it belong to the subcommand. (A word after `--` still selects a subcommand there.)
/// - Values beyond the declared positionals are `unexpectedArgument`; a required positional left
///   empty at the end is `missingArgument`.
/// - Short options are single letters given separately (`-o FILE`); there are no bundles like `-fq`.
public enum ArgumentParser {
    /// The built-in help spellings.
    public static let helpNames = ["-h", "--help"]

    /// Parses `arguments` (without the program name) for `spec`: cuts them into tokens (`SplitArguments`), then
    /// `interpret`s those. The first problem found, in command-line order, is thrown.
    public static func parse(_ arguments: [String], for spec: CommandSpec) throws(ArgumentError) -> ParsedArguments {
        try interpret(SplitArguments(arguments).tokens, for: spec)
    }

    /// Interprets `tokens` already cut (argv's, or a request's parameters, which arrive as tokens: a name with its
    /// value, never text to be cut again) for `spec`. The first problem found, in token order, is thrown.
    package static func interpret(_ tokens: [SplitArguments.Token], for spec: CommandSpec) throws(ArgumentError) -> ParsedArguments {
        var state = State(command: spec)
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token.kind {
            case .terminator:
                continue
            case .value(let word):
                try state.accept(word: word)
            case .option(let name, let attachedValue):
                if helpNames.contains(name) {
                    if let attachedValue {
                        throw .invalidValue(option: name, value: attachedValue, expected: flagExpectation)
                    }
                    return state.result(isHelpRequested: true)
                }
                guard let option = state.command.option(named: name) else {
                    throw .unknownOption(name, suggestion: state.suggestion(forOption: name))
                }
                var value: String? = nil
                if option.takesValue {
                    if let attachedValue {
                        value = attachedValue
                    } else if index < tokens.count, state.canBeValue(tokens[index]) {
                        value = tokens[index].original
                        index += 1
                    } else {
                        throw .missingValue(option: name)
                    }
                } else if let attachedValue {
                    throw .invalidValue(option: name, value: attachedValue, expected: flagExpectation)
                }
                try state.record(option, spelledAs: name, value: value)
            }
        }
        if let missing = state.command.positionals.dropFirst(state.positionals.count).first(where: { !$0.isOptional }),
           state.command.subcommands.isEmpty {
            throw .missingArgument(missing.name)
        }
        return state.result(isHelpRequested: false)
    }

    private static let flagExpectation = "no value (it is a flag)"

    /// What has been accepted so far, and the command level it applies to.
    private struct State {
        package var command: CommandSpec
        package var commandPath: [String] = []
        package var positionals: [String] = []
        package var occurrences: [String: ParsedArguments.Occurrence] = [:]
        package var canonicalNames: [String: String] = [:]
        /// Exclusive groups of every level passed through, as canonical names.
        package var exclusiveGroups: [[String]] = []

        package init(command: CommandSpec) {
            self.command = command
            enter(command)
        }

        private mutating func enter(_ command: CommandSpec) {
            self.command = command
            for option in command.options {
                for name in option.names { canonicalNames[name] = option.canonicalName }
            }
            exclusiveGroups += command.exclusiveGroups.map { group in
                group.map { command.option(named: $0)?.canonicalName ?? $0 }
            }
        }

        package mutating func accept(word: String) throws(ArgumentError) {
            if !command.subcommands.isEmpty {
                guard let subcommand = command.subcommand(named: word) else {
                    let suggestion = nearestNames(
                        to: word, among: command.subcommands.map(\.name), maxDistance: suggestionDistance(for: word)
                    ).first
                    throw .unknownCommand(word, suggestion: suggestion)
                }
                commandPath.append(word)
                enter(subcommand)
                return
            }
            guard positionals.count < command.positionals.count else { throw .unexpectedArgument(word) }
            positionals.append(word)
        }

        /// Whether the token after a value-taking option may serve as its value.
        package func canBeValue(_ token: SplitArguments.Token) -> Bool {
            switch token.kind {
            case .value: true
            case .terminator: false
            case .option(let name, _): command.option(named: name) == nil && !ArgumentParser.helpNames.contains(name)
            }
        }

        package mutating func record(_ option: OptionSpec, spelledAs name: String, value: String?) throws(ArgumentError) {
            let canonical = option.canonicalName
            guard occurrences[canonical] == nil else { throw .repeatedOption(name) }
            for group in exclusiveGroups where group.contains(canonical) {
                for other in group where other != canonical {
                    if let earlier = occurrences[other] { throw .conflictingOptions(earlier.spelledName, name) }
                }
            }
            if let value, let allowed = option.allowedValues, !allowed.contains(value) {
                throw .invalidValue(option: name, value: value, expected: ParsedArguments.describeChoices(allowed))
            }
            occurrences[canonical] = .init(spelledName: name, value: value, allowedValues: option.allowedValues)
        }

        package func suggestion(forOption name: String) -> String? {
            let known = command.options.flatMap(\.names) + ArgumentParser.helpNames
            return nearestNames(to: name, among: known, maxDistance: suggestionDistance(for: name)).first
        }

        package func result(isHelpRequested: Bool) -> ParsedArguments {
            ParsedArguments(
                command: command,
                commandPath: commandPath,
                positionals: positionals,
                isHelpRequested: isHelpRequested,
                occurrences: occurrences,
                canonicalNames: canonicalNames
            )
        }
    }
}
