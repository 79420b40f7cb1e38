/// argv cut into tokens before any command spec is consulted (`ArgumentParser.interpret` reads them). A request's
/// query needs no cutting: its tokens are made with `Token.option(_:value:)` and `Token.value(_:)`.
///
/// Tokenizing knows only the shapes of arguments; whether `-3` is an unknown option or the value
/// of a preceding `--seed` is decided later by `ArgumentParser`, which knows the spec.
package struct SplitArguments: Equatable {
    /// One argv element, classified.
    package struct Token: Equatable {
        package enum Kind: Equatable {
            /// `--name`, `--name=value`, `-o`, `-o=value`, or anything else starting with `-`
            /// (such as `-3`); `name` keeps its dashes and stops before the first `=`.
            case option(name: String, attachedValue: String?)
            /// A word that is not option-shaped: `box`, `-`, the empty string, or anything after `--`.
            case value(String)
            /// The first bare `--`; every later token is a `.value`.
            case terminator
        }

        package var kind: Kind
        /// The argv element exactly as given, used when an option-shaped token is taken as a value.
        package var original: String

        /// The option `name` (dashes included) with `value` attached, as given outside argv (a request's
        /// parameter): no text is cut, so the value is read as the value whatever it holds.
        package static func option(_ name: String, value: String?) -> Token {
            Token(kind: .option(name: name, attachedValue: value), original: value.map { name + "=" + $0 } ?? name)
        }

        /// A positional `word` given outside argv: a value whatever it holds, never an option.
        package static func value(_ word: String) -> Token {
            Token(kind: .value(word), original: word)
        }
    }

    package var tokens: [Token]

    package init(_ arguments: [String]) {
        var tokens: [Token] = []
        tokens.reserveCapacity(arguments.count)
        var isAfterTerminator = false
        for argument in arguments {
            if isAfterTerminator {
                tokens.append(Token(kind: .value(argument), original: argument))
            } else if argument == "--" {
                isAfterTerminator = true
                tokens.append(Token(kind: .terminator, original: argument))
            } else {
                tokens.append(Token(kind: Self.classify(argument), original: argument))
            }
        }
        self.tokens = tokens
    }

    private static func classify(_ argument: String) -> Token.Kind {
        // A lone "-" conventionally means standard input/output: a value.
        guard argument.hasPrefix("-"), argument != "-" else { return .value(argument) }
        guard let equalsIndex = argument.firstIndex(of: "=") else {
            return .option(name: argument, attachedValue: nil)
        }
        let name = String(argument[..<equalsIndex])
        // "--=x" and "-=x" have no name to attach a value to: report the whole token.
        guard name != "--", name != "-" else { return .option(name: argument, attachedValue: nil) }
        let value = String(argument[argument.index(after: equalsIndex)...])
        return .option(name: name, attachedValue: value)
    }
}
