import Breath

/// `--bpm N [--ratio A:B | A:B:C:D]`: a pace in breaths a minute in place of PATTERN, or `--ratio`
/// alone to re-pace a session built of paces (resonance-steps).
package struct PaceOptions {
    /// `--bpm`, read at the even ratio (`--ratio` applies after).
    package static let bpm = Option<BreathPace>(spec: OptionSpec(names: ["--bpm"], valueName: "N", help: "Breaths a minute in place of PATTERN, 1 to 30 (decimals allowed): one breath lasts 60/N s, rounded up to the microsecond.", overHTTP: true)) { text throws(InvalidOptionValue) in
        do throws(BreathPace.InvalidText) { return try BreathPace(breathsPerMinute: text) } catch { throw InvalidOptionValue(expected: error.expected) }
    }
    package static let ratio = Option<BreathRatio>(spec: OptionSpec(names: ["--ratio"], valueName: "A:B", help: "How --bpm divides a breath: inhale:exhale, or inhale:hold:exhale:hold (default 1:1); also re-paces resonance-steps.", overHTTP: true)) { text throws(InvalidOptionValue) in
        do throws(BreathPace.InvalidText) { return try BreathRatio.parse(text) } catch { throw InvalidOptionValue(expected: error.expected) }
    }

    package static let group = OptionGroup(title: "Pace", options: [Self.bpm.spec, Self.ratio.spec])

    /// `--ratio`, if given.
    package var ratio: BreathRatio?
    /// `--bpm` at `ratio` (1:1 when none), if given.
    package var pace: BreathPace?

    package init(_ arguments: ParsedArguments) throws(NagiError) {
        do {
            ratio = try arguments[Self.ratio]
            pace = try arguments[Self.bpm]
        } catch {
            throw .arguments(error)
        }
        pace?.ratio = ratio ?? .even
    }

    /// Precedence: `--bpm` stands in place of PATTERN, so giving both is refused.
    package func validate(pattern: String?) throws(NagiError) {
        if pace != nil, let pattern {
            throw .usage("give either PATTERN ('\(pattern)') or --bpm, not both")
        }
    }

    /// A short name for messages and default file names: "6bpm", "6bpm-2-3".
    package var name: String? {
        guard let pace else { return nil }
        return "\(pace.rateText)bpm" + (ratio.map { "-" + String($0.text.map { $0 == ":" ? "-" : $0 }) } ?? "")
    }
}
