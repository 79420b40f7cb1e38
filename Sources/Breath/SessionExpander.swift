/// Expands a session's stages into one flat list of timed phases, after checking the limits.
public enum SessionExpander {
    /// The most phases a schedule may hold (a day of 1.5-second breaths is under 60,000).
    public static let phaseLimit = 500_000

    /// One phase of the expanded session, before any sample rate is chosen.
    public struct TimedPhase: Sendable, Equatable {
        /// What the breath does, for how long, to which level, with which words.
        public var phase: Phase
        /// Which breath cycle of the whole session this phase belongs to, from 0.
        public var cycleIndex: Int
        /// Which repetition of the outermost repeated group the phase is in, from 0; nil outside one.
        public var roundIndex: Int? = nil
        /// The label of the stage this phase starts, on a labelled stage's first phase only.
        public var stageLabel: StageLabel? = nil
        /// On a labelled stage's first phase, how many phases the stage holds.
        public var stagePhaseCount: Int? = nil
    }

    /// The total length of `stages` in microseconds, checked against the 24-hour and phase-count limits
    /// before anything is expanded.
    public static func totalMicroseconds(of stages: [Stage]) throws(BreathError) -> Int64 {
        try measure(stages).microseconds
    }

    /// Expands `stages` into phases in order, refusing sessions beyond the limits.
    public static func expand(_ stages: [Stage]) throws(BreathError) -> [TimedPhase] {
        _ = try measure(stages)
        var phases: [TimedPhase] = []
        var cursor = Cursor()
        if stages.count == 1, case let .group(1, inner) = stages[0], inner.count >= 2 {
            // A rounds session cut to one round (`wim-hof --cycles 1`) is still a round: its quick breaths pass
            // unspoken, it has its chapter and `n` skips it, as each round of three does.
            cursor.roundIndex = 0
            append(inner, to: &phases, cursor: &cursor)
        } else {
            append(stages, to: &phases, cursor: &cursor)
        }
        return phases
    }

    // MARK: - Measuring with overflow checks

    private struct Measure {
        var microseconds: Int64
        var phaseCount: Int
    }

    private static var limitMessage: String {
        "the session is longer than nagi's limit of 24 hours; shorten it with --cycles or --minutes"
    }

    /// A session within 24 hours can still have too many phases (`0.000001-0.000001 --minutes 1`):
    /// the message then names the phase count, which is what to change.
    private static var phaseLimitMessage: String {
        "the session has more than \(phaseLimit) phases, nagi's limit; use longer phases or fewer cycles"
    }

    private static func measure(_ stages: [Stage]) throws(BreathError) -> Measure {
        var total = Measure(microseconds: 0, phaseCount: 0)
        for stage in stages {
            let part = try measure(stage)
            total.microseconds += part.microseconds
            total.phaseCount += part.phaseCount
            try check(total)
        }
        return total
    }

    private static func measure(_ stage: Stage) throws(BreathError) -> Measure {
        switch stage {
        case let .pattern(pattern, length):
            let cycleMicroseconds = try checkedCycleMicroseconds(of: pattern)
            let cycles = length.cycleCount(cycleMicroseconds: cycleMicroseconds)
            return try multiply(Measure(microseconds: cycleMicroseconds, phaseCount: pattern.phases.count), by: cycles)
        case let .ramp(from, to, length):
            // Checked first so the lanes' sums and the per-cycle arithmetic below cannot overflow.
            _ = try checkedCycleMicroseconds(of: from)
            _ = try checkedCycleMicroseconds(of: to)
            let lanes = try RampLanes(from: from, to: to)
            let cycles = lanes.cycleCount(for: length)
            // The phase count bounds the cycles, which with each end within 24 h keeps the closed-form
            // total below Int64.max; the limit then applies to the exact total, not to the longer end
            // times the cycles (which refused a 21-hour ramp as over 24 hours).
            let (phaseCount, overflow) = lanes.lanes.count.multipliedReportingOverflow(by: cycles)
            guard !overflow, phaseCount <= phaseLimit else { throw .limitExceeded(reason: phaseLimitMessage) }
            let result = Measure(microseconds: lanes.totalMicroseconds(cycles: cycles), phaseCount: phaseCount)
            try check(result)
            return result
        case let .group(count, stages):
            guard count >= 1 else {
                throw .limitExceeded(reason: "a repeated group needs a count of at least 1")
            }
            // An empty group measures 0 and would pass any count on to a loop of `count` empty rounds.
            guard !stages.isEmpty else {
                throw .limitExceeded(reason: "a repeated group needs at least one stage")
            }
            return try multiply(measure(stages), by: count)
        case let .labelled(_, inner):
            return try measure(inner)
        }
    }

    /// One cycle of `pattern` in microseconds, refusing what only a caller outside the decoders can build:
    /// no phases, a negative length, or lengths whose sum passes the 24-hour limit (or Int64) — a cycle of 0 µs
    /// would repeat without end and an overflowing one would trap.
    private static func checkedCycleMicroseconds(of pattern: Pattern) throws(BreathError) -> Int64 {
        var total: Int64 = 0
        for phase in pattern.phases {
            guard phase.durationMicroseconds >= 0 else {
                throw .limitExceeded(reason: "a phase of \(phase.durationMicroseconds) µs is negative; a phase lasts 0 s or more")
            }
            // Both terms are at most the limit here, so the sum cannot overflow.
            guard phase.durationMicroseconds <= Microseconds.sessionLimit else { throw .limitExceeded(reason: limitMessage) }
            total += phase.durationMicroseconds
            guard total <= Microseconds.sessionLimit else { throw .limitExceeded(reason: limitMessage) }
        }
        guard total > 0 else {
            throw .limitExceeded(reason: "a pattern needs at least one phase longer than 0 s")
        }
        return total
    }

    private static func multiply(_ measure: Measure, by count: Int) throws(BreathError) -> Measure {
        let (microseconds, overflowA) = measure.microseconds.multipliedReportingOverflow(by: Int64(count))
        let (phaseCount, overflowB) = measure.phaseCount.multipliedReportingOverflow(by: count)
        if overflowA { throw .limitExceeded(reason: limitMessage) }
        if overflowB { throw .limitExceeded(reason: phaseLimitMessage) }
        let result = Measure(microseconds: microseconds, phaseCount: phaseCount)
        try check(result)
        return result
    }

    private static func check(_ measure: Measure) throws(BreathError) {
        if measure.microseconds > Microseconds.sessionLimit {
            throw .limitExceeded(reason: limitMessage)
        }
        if measure.phaseCount > phaseLimit {
            throw .limitExceeded(reason: phaseLimitMessage)
        }
    }

    // MARK: - Expanding

    /// Where expansion stands: the cycle count so far, the round of the outermost repeated group, and a
    /// stage label waiting for the next phase.
    private struct Cursor {
        var cycleIndex = 0
        var roundIndex: Int?
        var pendingLabel: StageLabel?

        /// A phase at the cursor; the waiting label goes to it and no further.
        mutating func timed(_ phase: Phase) -> TimedPhase {
            defer { pendingLabel = nil }
            return TimedPhase(phase: phase, cycleIndex: cycleIndex, roundIndex: roundIndex, stageLabel: pendingLabel)
        }
    }

    private static func append(_ stages: [Stage], to phases: inout [TimedPhase], cursor: inout Cursor) {
        for stage in stages {
            append(stage, to: &phases, cursor: &cursor)
        }
    }

    private static func append(_ stage: Stage, to phases: inout [TimedPhase], cursor: inout Cursor) {
        switch stage {
        case let .pattern(pattern, length):
            let cycles = length.cycleCount(cycleMicroseconds: pattern.cycleMicroseconds)
            for _ in 0..<cycles {
                for phase in pattern.phases {
                    phases.append(cursor.timed(phase))
                }
                cursor.cycleIndex += 1
            }
        case let .ramp(from, to, length):
            // Lanes were validated by measure(); a failure here cannot happen, so skip quietly.
            guard let lanes = try? RampLanes(from: from, to: to) else { return }
            let cycles = lanes.cycleCount(for: length)
            for cycle in 0..<cycles {
                for lane in lanes.lanes {
                    let microseconds = lane.length(cycle: cycle, of: cycles)
                    if microseconds > 0 {
                        phases.append(cursor.timed(Phase(kind: lane.kind, durationMicroseconds: microseconds, targetLevel: lane.targetLevel, spokenWords: lane.spokenWords)))
                    }
                }
                cursor.cycleIndex += 1
            }
        case let .group(count, stages):
            // A group played once is a wrapper (a session used as a stage), not rounds, unless it is the whole
            // session and holds several stages (see `expand`); rounds count in the outermost group that repeats.
            let countsRounds = count >= 2 && cursor.roundIndex == nil
            for round in 0..<count {
                if countsRounds { cursor.roundIndex = round }
                append(stages, to: &phases, cursor: &cursor)
            }
            if countsRounds { cursor.roundIndex = nil }
        case let .labelled(label, inner):
            cursor.pendingLabel = label
            let first = phases.count
            append(inner, to: &phases, cursor: &cursor)
            cursor.pendingLabel = nil
            // A label nested at the same start wins (it was set last) and counted its own phases first.
            if first < phases.count, phases[first].stagePhaseCount == nil {
                phases[first].stagePhaseCount = phases.count - first
            }
        }
    }
}
