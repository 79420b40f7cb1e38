import NagiDocuments
import NagiKit
import NagiOptions

/// A request's query read as a command's arguments: each parameter the option of the same name (`cycles=3` is
/// the option `--cycles` with the value `3`, `end-bell=1` the flag `--end-bell`), `pattern` the PATTERN, interpreted
/// by the command line's own parser so that a bad value gets the very line `nagi` prints for it.
///
/// A query is already cut into names and values, so it is handed to the parser as its tokens
/// (`ArgumentParser.interpret`), never written out as command-line text to be cut again: a value is the value
/// whatever it holds (`title=--force`, `pattern=--help`), and no value can ever be read as another option.
///
/// Which options a request may give is an allow-list: only those whose spec says `overHTTP`, so an option added to
/// the command line stays closed to requests until its spec opens it. No path ever comes from a request: the
/// options that name files (`-o`, `--labels`, `--cue-sheet`, `--cover`) are not open, a PATTERN or soundscape must be
/// a preset name or inline text, and a bed or cue pack is named from the user's own folders (`UserFolders`), never
/// given as a path.
package struct QueryArguments {
    /// Parameters the server reads itself rather than as options.
    static let serverParameters: Set<String> = ["pattern", "token", "download", "format", "course", "lesson"]

    /// The parser's reading of `query` for `spec`. Parameters the spec does not take but `tolerated` does (a render's
    /// options sent to `/api/describe` with the same query) are left out; any other unknown parameter is refused.
    /// - Throws: `QueryError` with the command line's line (and the parameter at fault).
    /// `positionals` go before PATTERN (a course's NAME, which the path names); `options` before the query's own (the
    /// server's reading of a parameter it takes itself, such as `--format` `mp3` from `format`).
    package static func parse(
        _ query: [(name: String, value: String)], for spec: CommandSpec, tolerating tolerated: [CommandSpec] = [], positionals: [String] = [],
        options given: [SplitArguments.Token] = [], folders: UserFolders
    ) throws(QueryError) -> ParsedArguments {
        var tokens = given
        var pattern: String?
        for (name, value) in query {
            if name == "pattern" {
                guard pattern == nil else { throw QueryError(.arguments(.repeatedOption("pattern")), parameter: name) }
                pattern = value
                continue
            }
            if serverParameters.contains(name) { continue }
            let optionName = "--" + name
            let declared = ([spec] + tolerated).compactMap { $0.option(named: optionName) }
            guard !declared.isEmpty else {
                throw QueryError(.usage("unknown parameter '\(name)'"), parameter: name)
            }
            guard declared.allSatisfy(\.overHTTP) else {
                throw QueryError(.usage("the parameter '\(name)' is not taken here: a request never names a file or the server's own settings"), parameter: name)
            }
            guard let option = spec.option(named: optionName) else { continue }
            if option.takesValue {
                tokens.append(.option(optionName, value: try resolved(value, of: name, folders: folders)))
            } else {
                switch value.lowercased() {
                case "", "1", "true", "yes", "on": tokens.append(.option(optionName, value: nil))
                case "0", "false", "no", "off": continue
                default: throw QueryError(.arguments(.invalidValue(option: optionName, value: value, expected: "1 or 0 (it is a flag)")), parameter: name)
                }
            }
        }
        tokens += positionals.map(SplitArguments.Token.value)
        if let pattern {
            guard !PresetCatalog.isFilePath(pattern) else {
                throw QueryError(.noInput("no pattern '\(pattern)': a request names a preset or writes a pattern inline, never a file"), parameter: "pattern")
            }
            tokens.append(.value(pattern))
        }
        do {
            return try ArgumentParser.interpret(tokens, for: spec)
        } catch {
            let parameter: String? = switch error {
            case let .unknownOption(name, _), let .missingValue(name), let .repeatedOption(name), let .conflictingOptions(name, _),
                 let .invalidValue(name, _, _): String(name.drop { $0 == "-" })
            case .unexpectedArgument, .missingArgument: "pattern"
            case .unknownCommand: nil
            }
            throw QueryError(.arguments(error), parameter: parameter)
        }
    }

    /// A value as the option reads it: a soundscape by name only, a bed or cue pack by name from the user's folders.
    private static func resolved(_ value: String, of name: String, folders: UserFolders) throws(QueryError) -> String {
        switch "--" + name {
        case SoundscapeOptions.soundscape.name:
            guard !PresetCatalog.isFilePath(value) else {
                throw QueryError(.noInput("no soundscape '\(value)': a request names a preset, never a file"), parameter: name)
            }
            return value
        case BedOptions.bed.name: return try folders.bed(named: value)
        case GuidanceOptions.cuePack.name: return try folders.cuePack(named: value)
        default: return value
        }
    }
}

/// A request's parameter refused, with the line the command line prints for it.
package struct QueryError: Error {
    package var error: NagiError
    /// The parameter at fault, when one is.
    package var parameter: String?

    package init(_ error: NagiError, parameter: String? = nil) {
        self.error = error
        self.parameter = parameter
    }
}
