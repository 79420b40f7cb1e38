/// What `ArgumentParser.parse` accepted: the command chosen, its positionals, the options given.
///
/// Options are looked up by any of their spellings (`"-o"` or `"--output"`). Options given before a
/// subcommand's name (e.g. the root's `--version`) are kept here too.
public struct ParsedArguments: Sendable, Equatable {
    /// One option as it was given.
    package struct Occurrence: Sendable, Equatable {
        /// The spelling the user typed, quoted in errors.
        package var spelledName: String
        /// `nil` for a flag.
        package var value: String?
        package var allowedValues: [String]?
    }

    /// The innermost command selected (the root spec if no subcommand was named).
    public let command: CommandSpec
    /// Names of the subcommands selected, outermost first, root excluded: `["course", "show"]`.
    /// Empty when the root itself runs (`nagi --version`); a command with subcommands whose
    /// subcommand was not named ends the path, and the caller decides what that means.
    public let commandPath: [String]
    /// Positional values of `command`, in order; optional ones that were not given are absent.
    public let positionals: [String]
    /// `-h` or `--help` was given: parsing stopped there, and positionals may be incomplete.
    /// Show `UsageText.help(for: command, …)` and exit 0.
    public let isHelpRequested: Bool

    /// Given options by canonical name.
    package let occurrences: [String: Occurrence]
    /// Every declared spelling, on every level passed through, to its canonical name.
    package let canonicalNames: [String: String]

    /// Whether `flag` was given.
    public subscript(flag: Flag) -> Bool {
        occurrence(flag.name) != nil
    }

    /// The value of `option` as its key reads it; `nil` if it was not given.
    /// - Throws: `invalidValue` quoting the spelling given, when the key's `read` refuses the text.
    public subscript<Value>(option: Option<Value>) -> Value? {
        get throws(ArgumentError) {
            guard let given = occurrence(option.name), let text = given.value else { return nil }
            do {
                return try option.read(text)
            } catch {
                throw .invalidValue(option: given.spelledName, value: text, expected: error.expected)
            }
        }
    }

    /// Whether `option` was given (whatever its value).
    public func isSet<Value>(_ option: Option<Value>) -> Bool {
        occurrence(option.name) != nil
    }

    /// The text given for `option`, unread; `nil` if it was not given. For messages and for values read in context
    /// (a path checked where it is opened).
    public func text<Value>(of option: Option<Value>) -> String? {
        occurrence(option.name)?.value
    }

    // The readers by spelling below serve the parser's own tests; commands read by key (above).

    /// The raw value of an option, `nil` if it was not given (or is a flag).
    func value(_ name: String) -> String? {
        occurrence(name)?.value
    }

    /// Whether the option or flag was given.
    func isSet(_ name: String) -> Bool {
        occurrence(name) != nil
    }

    /// The option's value as a whole number within `range` (`Option`'s reading); `nil` if it was not given.
    func int(_ name: String, in range: ClosedRange<Int>) throws(ArgumentError) -> Int? {
        try self[Option([name], valueName: "N", help: "", wholeNumberIn: range)]
    }

    /// The option's value as a finite decimal number within `range` (`Option`'s reading); `nil` if it was not given.
    func decimal(_ name: String, in range: ClosedRange<Double>) throws(ArgumentError) -> Double? {
        try self[Option([name], valueName: "N", help: "", decimalIn: range)]
    }

    /// The option's value, checked against its `allowedValues`; `nil` if it was not given.
    func choice(_ name: String) throws(ArgumentError) -> String? {
        guard let given = occurrence(name), let text = given.value else { return nil }
        if let allowed = given.allowedValues, !allowed.contains(text) {
            throw .invalidValue(option: given.spelledName, value: text, expected: Self.describeChoices(allowed))
        }
        return text
    }

    private func occurrence(_ name: String) -> Occurrence? {
        let canonical = canonicalNames[name]
        // An undeclared name is a typo in the caller, which would silently read as "not given".
        assert(canonical != nil, "option '\(name)' is not declared by any command on the path")
        return canonical.flatMap { occurrences[$0] }
    }

    package static func describeChoices(_ allowed: [String]) -> String {
        "one of: " + allowed.joined(separator: ", ")
    }

    package static func describeWholeNumbers(in range: ClosedRange<Int>) -> String {
        switch (range.lowerBound == Int.min, range.upperBound == Int.max) {
        case (true, true): "a whole number"
        case (false, true): "a whole number of at least \(range.lowerBound)"
        case (true, false): "a whole number of at most \(range.upperBound)"
        case (false, false): "a whole number from \(range.lowerBound) to \(range.upperBound)"
        }
    }

    package static func describeDecimals(in range: ClosedRange<Double>) -> String {
        let lower = range.lowerBound, upper = range.upperBound
        switch (lower == -.infinity, upper == .infinity) {
        case (true, true): return "a number"
        case (false, true): return "a number of at least \(formatBound(lower))"
        case (true, false): return "a number of at most \(formatBound(upper))"
        case (false, false): return "a number from \(formatBound(lower)) to \(formatBound(upper))"
        }
    }

    /// `600` rather than `600.0`; fractions as Swift prints them (`0.1`).
    private static func formatBound(_ bound: Double) -> String {
        if bound == bound.rounded(), abs(bound) < 1e15 { return String(Int(bound)) }
        return "\(bound)"
    }
}
