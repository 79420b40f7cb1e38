/// One breath cycle: an ordered list of phases, with the words and defaults a preset carries.
public struct Pattern: Sendable, Equatable {
    /// A human title ("Relaxing breath").
    public var title: String?
    /// One or two sentences on what the pattern is for.
    public var description: String?
    /// The easing this pattern asks for, if any.
    public var easing: Easing?
    /// The phases of one cycle, in order; never empty, none of zero length.
    public var phases: [Phase]
    /// The session length a preset suggests when the command line names none.
    public var defaultLength: SessionLength?
    /// The pace this pattern was made from (`--bpm`, `{"bpm": …}`), so that a ratio given later can remake it.
    public var pace: BreathPace?

    public init(title: String? = nil, description: String? = nil, easing: Easing? = nil, phases: [Phase], defaultLength: SessionLength? = nil) {
        self.title = title
        self.description = description
        self.easing = easing
        self.phases = phases
        self.defaultLength = defaultLength
    }

    /// The breath this pattern never takes: `.inhale` when no phase breathes in, `.exhale` when none breathes out,
    /// nil when it does both (a hold alone is a stage of a session, never a breathing pattern of its own).
    public var missingBreath: PhaseKind? {
        Self.missingBreath(among: phases)
    }

    /// The breath `phases` never take (`missingBreath`).
    static func missingBreath(among phases: [Phase]) -> PhaseKind? {
        [PhaseKind.inhale, .exhale].first { kind in !phases.contains { $0.kind == kind && $0.durationMicroseconds > 0 } }
    }

    /// The length of one cycle in microseconds.
    public var cycleMicroseconds: Int64 {
        phases.reduce(0) { $0 + $1.durationMicroseconds }
    }

    /// The pattern as an inline string ("4-7-8"), when it is one breathing apps could write: kinds in the
    /// canonical order inhale, holdIn, exhale, holdOut, each at most once, and no target levels or words.
    public var inlineNotation: String? {
        let order: [PhaseKind] = [.inhale, .holdIn, .exhale, .holdOut]
        var lengths: [PhaseKind: Int64] = [:]
        var lastIndex = -1
        for phase in phases {
            guard phase.targetLevel == nil, phase.spokenWords == nil, let index = order.firstIndex(of: phase.kind), index > lastIndex else { return nil }
            lastIndex = index
            lengths[phase.kind] = phase.durationMicroseconds
        }
        guard lengths[.inhale] != nil, lengths[.exhale] != nil else { return nil }
        var slots = [lengths[.inhale] ?? 0, lengths[.exhale] ?? 0]
        if lengths[.holdIn] != nil || lengths[.holdOut] != nil {
            slots = [lengths[.inhale] ?? 0, lengths[.holdIn] ?? 0, lengths[.exhale] ?? 0]
        }
        if lengths[.holdOut] != nil { slots.append(lengths[.holdOut] ?? 0) }
        return slots.map(Microseconds.formatSeconds).joined(separator: "-")
    }
}
