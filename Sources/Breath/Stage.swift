/// One part of a session: a pattern for a length, a ramp between two patterns, or a repeated group.
public indirect enum Stage: Sendable, Equatable {
    /// A pattern for N cycles or about M minutes (whole cycles).
    case pattern(Pattern, SessionLength)
    /// Every phase length moves linearly from `from` to `to`, cycle by cycle; the first cycle is `from`,
    /// the last is `to`. Phases absent from one side count as 0 s there and are skipped while 0.
    case ramp(from: Pattern, to: Pattern, SessionLength)
    /// A group of stages played `count` times in a row.
    case group(count: Int, stages: [Stage])
    /// A stage whose first phase carries a label and an announcement (each time the stage is played).
    case labelled(StageLabel, Stage)
}
