import Synth

/// `--countdown` and `--end-bell`, what sounds before and after the breathing: one name, value, range and reading
/// for every command that takes them (render and play, describe, plot), each with its own help for what the
/// framing does there.
package struct FramingOptions: Sendable {
    /// A get-ready lead-in, whole seconds (`SessionFraming.countdownRange`).
    package let countdown: Option<Int>
    /// The end bell after the release.
    package let endBell: Flag

    /// The two options, open over HTTP, with help text written for the command that shows it.
    package init(countdownHelp: String, endBellHelp: String) {
        countdown = Option<Int>(["--countdown"], valueName: "N", help: countdownHelp, wholeNumberIn: SessionFraming.countdownRange, overHTTP: true)
        endBell = Flag(["--end-bell"], help: endBellHelp, overHTTP: true)
    }

    /// The countdown's length in seconds (0 when not given: none) and whether the end bell rings.
    /// - Throws: `ArgumentError` when the countdown's value is refused.
    package func read(_ arguments: ParsedArguments) throws(ArgumentError) -> (countdownSeconds: Int, endBell: Bool) {
        (try arguments[countdown] ?? 0, arguments[endBell])
    }
}
