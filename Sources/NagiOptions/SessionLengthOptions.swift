import Breath

/// `--cycles N` or `--minutes M`: how long a session runs, overriding its preset's own length.
package struct SessionLengthOptions {
    package static let group = OptionGroup(
        title: "Session length",
        options: [
            OptionSpec(names: ["--cycles"], valueName: "N", help: "Breath cycles to play, overriding the preset's length (Wim Hof rounds: rounds; a session of stages: whole passes)."),
            OptionSpec(names: ["--minutes"], valueName: "M", help: "About this many minutes, rounded to whole cycles (at least one)."),
        ],
        exclusiveGroups: [["--cycles", "--minutes"]]
    )

    /// The length asked for; `nil` keeps the session's own.
    package var length: SessionLength?

    /// Whether the session was lengthened or shortened from its own length.
    package var overridesLength: Bool { length != nil }

    package init(_ arguments: ParsedArguments) throws(NagiError) {
        do {
            if let cycles = try arguments.int("--cycles", in: 1...SessionExpander.phaseLimit) {
                length = .cycles(cycles)
            }
        } catch {
            throw .arguments(error)
        }
        if let text = arguments.value("--minutes") {
            guard let microseconds = Microseconds.parseDecimal(Substring(text), unitMicroseconds: 60 * Microseconds.perSecond), microseconds > 0 else {
                throw .arguments(.invalidValue(option: "--minutes", value: text, expected: "a number of minutes above 0 and at most 1440 (24 hours), like 5 or 2.5"))
            }
            length = .duration(microseconds: microseconds)
        }
        try validate(cyclesGiven: arguments.isSet("--cycles"), minutesGiven: arguments.isSet("--minutes"))
    }

    /// Precedence: at most one of `--cycles` and `--minutes`; either replaces the session's own
    /// length; neither keeps it. The parser already refuses the pair through the group's exclusive
    /// set; this holds the rule for a spec that took the options without the set.
    package func validate(cyclesGiven: Bool, minutesGiven: Bool) throws(NagiError) {
        if cyclesGiven, minutesGiven {
            throw .arguments(.conflictingOptions("--cycles", "--minutes"))
        }
    }

    /// `session` at the asked length, or as it is.
    package func apply(to session: Session) throws(NagiError) -> Session {
        guard let length else { return session }
        do {
            return try session.withLength(length)
        } catch {
            throw .breath(error)
        }
    }
}
