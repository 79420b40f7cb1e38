/// Parses patterns written as breathing apps write them: `4-7-8`, `4-4-4-4`, `5.5-5.5`, `3-0-6-2`.
public enum InlinePattern {
    /// The phase kinds for 2, 3 and 4 numbers.
    static func kinds(forCount count: Int) -> [PhaseKind]? {
        switch count {
        case 2: [.inhale, .exhale]
        case 3: [.inhale, .holdIn, .exhale]
        case 4: [.inhale, .holdIn, .exhale, .holdOut]
        default: nil
        }
    }

    /// Whether the text has the shape of an inline pattern (digits, points and dashes only), so that a
    /// malformed one gets a pattern error rather than "no such preset".
    public static func looksInline(_ text: String) -> Bool {
        !text.isEmpty && text.contains("-") && text.unicodeScalars.allSatisfy {
            ("0"..."9").contains($0) || $0 == "." || $0 == "-"
        }
    }

    /// Parses an inline pattern; a `0` skips that phase.
    public static func parse(_ text: String) throws(BreathError) -> Pattern {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let kinds = kinds(forCount: fields.count) else {
            throw .inlinePattern(text: text, reason: "an inline pattern has 2 to 4 lengths in seconds joined by '-' (inhale-exhale, inhale-hold-exhale or inhale-hold-exhale-hold), like 4-7-8")
        }
        var phases: [Phase] = []
        for (kind, field) in zip(kinds, fields) {
            guard !field.isEmpty else {
                throw .inlinePattern(text: text, reason: "the \(kind.rawValue) length is empty; write a number of seconds such as 4 or 5.5")
            }
            guard let microseconds = Microseconds.parseDecimal(field, unitMicroseconds: Microseconds.perSecond) else {
                throw .inlinePattern(text: text, reason: "'\(field)' is not a length in seconds from 0 to 86400 with at most 6 decimals (ASCII digits, like 4 or 5.5)")
            }
            if microseconds > 0 {
                phases.append(Phase(kind: kind, durationMicroseconds: microseconds))
            }
        }
        guard !phases.isEmpty else {
            throw .inlinePattern(text: text, reason: "every length is 0; a pattern needs at least one phase longer than 0 s")
        }
        if let missing = Pattern.missingBreath(among: phases) {
            throw .inlinePattern(text: text, reason: "it never breathes \(missing == .inhale ? "in" : "out"); the \(missing.rawValue) must be longer than 0 s")
        }
        return Pattern(phases: phases)
    }
}
