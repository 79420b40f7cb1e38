/// A whole practice: a sequence of stages, with a title and the easing it moves by.
public struct Session: Sendable, Equatable {
    /// A human title ("Wim Hof breathing").
    public var title: String?
    /// What the session is for.
    public var description: String?
    /// How the level moves within each phase.
    public var easing: Easing
    /// The stages, in order.
    public var stages: [Stage]

    /// The easing when neither the session nor its pattern names one: the cosine ease (docs/sound-design.md § 1).
    public static let defaultEasing = Easing.cosine

    public init(title: String? = nil, description: String? = nil, easing: Easing = Session.defaultEasing, stages: [Stage]) {
        self.title = title
        self.description = description
        self.easing = easing
        self.stages = stages
    }

    /// A session of one pattern at `length`, or at the pattern's own default (5 minutes when it has none).
    public init(pattern: Pattern, length: SessionLength? = nil) {
        self.init(
            title: pattern.title,
            description: pattern.description,
            easing: pattern.easing ?? Session.defaultEasing,
            stages: [.pattern(pattern, length ?? pattern.defaultLength ?? .duration(microseconds: 5 * 60 * Microseconds.perSecond))]
        )
    }

    /// The breath this session never takes in any stage: `.inhale` or `.exhale`, nil when it breathes in and out
    /// (a stage may be a hold alone, as Wim Hof's retention is, but not the whole session).
    public var missingBreath: PhaseKind? {
        var phases: [Phase] = []
        func collect(_ stage: Stage) {
            switch stage {
            case let .pattern(pattern, _): phases += pattern.phases
            case let .ramp(from, to, _): phases += from.phases + to.phases
            case let .group(_, stages): stages.forEach(collect)
            case let .labelled(_, inner): collect(inner)
            }
        }
        stages.forEach(collect)
        return Pattern.missingBreath(among: phases)
    }

    /// The session with its length overridden from the command line. A single-pattern or ramp session takes
    /// the new length directly; a session that is one repeated group takes it as its number of rounds
    /// (`--cycles 4` on Wim Hof rounds gives four rounds); any other session counts one pass through all its
    /// stages as a cycle and repeats whole passes.
    public func withLength(_ length: SessionLength) throws(BreathError) -> Session {
        var copy = self
        if stages.count == 1, case let .pattern(pattern, _) = stages[0] {
            copy.stages = [.pattern(pattern, length)]
            return copy
        }
        if stages.count == 1, case let .ramp(from, to, _) = stages[0] {
            copy.stages = [.ramp(from: from, to: to, length)]
            return copy
        }
        if stages.count == 1, case let .group(_, inner) = stages[0] {
            let roundMicroseconds = try SessionExpander.totalMicroseconds(of: inner)
            copy.stages = [.group(count: length.cycleCount(cycleMicroseconds: roundMicroseconds), stages: inner)]
            return copy
        }
        let passMicroseconds = try SessionExpander.totalMicroseconds(of: stages)
        let passes = length.cycleCount(cycleMicroseconds: passMicroseconds)
        // One pass is the stages themselves: a group of one would read as one round (`SessionExpander.expand`).
        if passes > 1 { copy.stages = [.group(count: passes, stages: stages)] }
        return copy
    }

    /// The session with every pattern made from a pace (`--bpm`, `{"bpm": …}`) remade at `ratio`, or nil when
    /// no pattern in it was made from a pace (a ratio would have nothing to apply to).
    public func withRatio(_ ratio: BreathRatio) -> Session? {
        var paced = false
        var copy = self
        copy.stages = stages.map { Self.remade($0, ratio: ratio, paced: &paced) }
        return paced ? copy : nil
    }

    private static func remade(_ stage: Stage, ratio: BreathRatio, paced: inout Bool) -> Stage {
        switch stage {
        case let .pattern(pattern, length):
            return .pattern(remade(pattern, ratio: ratio, paced: &paced), length)
        case let .ramp(from, to, length):
            return .ramp(from: remade(from, ratio: ratio, paced: &paced), to: remade(to, ratio: ratio, paced: &paced), length)
        case let .group(count, stages):
            return .group(count: count, stages: stages.map { remade($0, ratio: ratio, paced: &paced) })
        case let .labelled(label, inner):
            return .labelled(label, remade(inner, ratio: ratio, paced: &paced))
        }
    }

    /// `pattern` at its pace with a new ratio, keeping its words and defaults (a title made from the old
    /// ratio follows the new one).
    private static func remade(_ pattern: Pattern, ratio: BreathRatio, paced: inout Bool) -> Pattern {
        guard var pace = pattern.pace else { return pattern }
        paced = true
        let oldTitle = pace.pattern.title
        pace.ratio = ratio
        let fresh = pace.pattern
        var result = pattern
        result.phases = fresh.phases
        result.pace = pace
        if pattern.title == oldTitle { result.title = fresh.title }
        return result
    }
}
