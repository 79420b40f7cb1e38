import Breath

/// `--cycles N` or `--minutes M`: how long a session runs, overriding its preset's own length.
package struct SessionLengthOptions {
    package static let cycles = Option<Int>(["--cycles"], valueName: "N", help: "Breath cycles to play, overriding the preset's length (Wim Hof rounds: rounds; a session of stages: whole passes).", wholeNumberIn: 1...SessionExpander.phaseLimit, overHTTP: true)
    /// `--minutes`, in microseconds.
    package static let minutes = Option<Int64>(spec: OptionSpec(names: ["--minutes"], valueName: "M", help: "About this many minutes, rounded to whole cycles (at least one).", overHTTP: true)) { text throws(InvalidOptionValue) in
        guard let microseconds = Microseconds.parseDecimal(Substring(text), unitMicroseconds: 60 * Microseconds.perSecond), microseconds > 0 else {
            throw InvalidOptionValue(expected: "a number of minutes above 0 and at most 1440 (24 hours), like 5 or 2.5")
        }
        return microseconds
    }

    package static let group = OptionGroup(title: "Session length", options: [cycles.spec, minutes.spec], exclusiveGroups: [[cycles.name, minutes.name]])

    /// The length asked for; `nil` keeps the session's own.
    package var length: SessionLength?

    /// Whether the session was lengthened or shortened from its own length.
    package var overridesLength: Bool { length != nil }

    package init(_ arguments: ParsedArguments) throws(NagiError) {
        do {
            if let cycles = try arguments[Self.cycles] {
                length = .cycles(cycles)
            }
            if let microseconds = try arguments[Self.minutes] {
                length = .duration(microseconds: microseconds)
            }
        } catch {
            throw .arguments(error)
        }
        try validate(cyclesGiven: arguments.isSet(Self.cycles), minutesGiven: arguments.isSet(Self.minutes))
    }

    /// Precedence: at most one of `--cycles` and `--minutes`; either replaces the session's own
    /// length; neither keeps it. The parser already refuses the pair through the group's exclusive
    /// set; this holds the rule for a spec that took the options without the set.
    package func validate(cyclesGiven: Bool, minutesGiven: Bool) throws(NagiError) {
        if cyclesGiven, minutesGiven {
            throw .arguments(.conflictingOptions(Self.cycles.name, Self.minutes.name))
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
