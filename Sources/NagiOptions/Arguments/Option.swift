/// An option with a value, declared once as a typed key: its spec goes into a command's options and its `read`
/// turns the text given into a `Value`, so a command reads `try arguments[SessionLengthOptions.cycles]` as an `Int`,
/// checked, never by its spelling.
///
/// As in swift-argument-parser, the command line is first tokenized and matched to specs (`ArgumentParser`), then
/// interpreted: a value `read` refuses becomes `ArgumentError.invalidValue` quoting the spelling the user typed.
public struct Option<Value: Sendable>: Sendable {
    /// What the parser accepts and help shows.
    public let spec: OptionSpec
    /// The value from the text given, or what would be accepted instead.
    public let read: @Sendable (String) throws(InvalidOptionValue) -> Value

    /// An option whose text is read by `read`.
    public init(spec: OptionSpec, read: @escaping @Sendable (String) throws(InvalidOptionValue) -> Value) {
        self.spec = spec
        self.read = read
    }

    /// The spelling values are stored and messages quote it under (`--cycles`).
    public var name: String { spec.canonicalName }
}

/// What an option would accept in place of the text given (`a whole number from 1 to 64`), for
/// `ArgumentError.invalidValue`.
public struct InvalidOptionValue: Error, Sendable, Equatable {
    public var expected: String

    public init(expected: String) {
        self.expected = expected
    }
}

extension Option where Value == String {
    /// An option taking any text as given, or only one of `allowedValues` (listed in help, checked by the parser).
    public init(_ names: [String], valueName: String, help: String, allowedValues: [String]? = nil, completion: CompletionKind? = nil, overHTTP: Bool = false) {
        self.init(spec: OptionSpec(names: names, valueName: valueName, help: help, allowedValues: allowedValues, completion: completion, overHTTP: overHTTP)) { $0 }
    }
}

extension Option where Value: Comparable {
    /// A number `number` reads (nil: not one) within `range`; anything else is refused as not `expected`.
    private init(
        _ names: [String], valueName: String, help: String, overHTTP: Bool, range: ClosedRange<Value>, expected: String,
        number: @escaping @Sendable (String) -> Value?
    ) {
        self.init(spec: OptionSpec(names: names, valueName: valueName, help: help, overHTTP: overHTTP)) { text throws(InvalidOptionValue) in
            guard let value = number(text), range.contains(value) else { throw InvalidOptionValue(expected: expected) }
            return value
        }
    }
}

extension Option where Value == Int {
    /// A whole number within `range`: ASCII `[+-]digits` only (no spaces, no `0x`, no full-width digits, nothing
    /// beyond `Int`).
    public init(_ names: [String], valueName: String, help: String, wholeNumberIn range: ClosedRange<Int>, overHTTP: Bool = false) {
        self.init(names, valueName: valueName, help: help, overHTTP: overHTTP, range: range, expected: ParsedArguments.describeWholeNumbers(in: range), number: NumberSyntax.wholeNumber)
    }
}

extension Option where Value == Double {
    /// A finite decimal number within `range`, in ASCII decimal notation with an optional exponent (`2.5`, `.5`,
    /// `1e3`); `nan`, `inf`, hexadecimal, spaces, non-ASCII digits and overflow (`1e999`) are refused.
    public init(_ names: [String], valueName: String, help: String, decimalIn range: ClosedRange<Double>, overHTTP: Bool = false) {
        self.init(names, valueName: valueName, help: help, overHTTP: overHTTP, range: range, expected: ParsedArguments.describeDecimals(in: range), number: NumberSyntax.decimal)
    }
}

extension Option where Value: RawRepresentable, Value.RawValue == String {
    /// One of `choices`, listed in help and checked by the parser; read as the `Value` of that raw value.
    public init(_ names: [String], valueName: String, help: String, choices: [Value], overHTTP: Bool = false) {
        let allowed = choices.map(\.rawValue)
        self.init(spec: OptionSpec(names: names, valueName: valueName, help: help, allowedValues: allowed, overHTTP: overHTTP)) { text throws(InvalidOptionValue) in
            guard allowed.contains(text), let value = Value(rawValue: text) else {
                throw InvalidOptionValue(expected: ParsedArguments.describeChoices(allowed))
            }
            return value
        }
    }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of every case of `Value`.
    public init(_ names: [String], valueName: String, help: String, overHTTP: Bool = false) {
        self.init(names, valueName: valueName, help: help, choices: Array(Value.allCases), overHTTP: overHTTP)
    }
}
