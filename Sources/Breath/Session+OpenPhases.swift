/// Open-ended holds: marking them (`--retention open`) and stretching them for live playback.
extension Session {
    /// Whether any phase of the session is open-ended (ramps carry no open phases).
    public var hasOpenPhases: Bool {
        var found = false
        _ = Self.mapPatterns(stages) { pattern in
            if pattern.phases.contains(where: \.isOpen) { found = true }
            return pattern
        }
        return found
    }

    /// The session with every retention made open-ended, or nil when it has none. A retention is a hold after
    /// the breath out that is a pattern of its own (Wim Hof's 60 s hold between the quick breaths and the
    /// recovery breath).
    public func withOpenRetention() -> Session? {
        var marked = false
        var copy = self
        copy.stages = Self.mapPatterns(stages) { pattern in
            guard pattern.phases.count == 1, pattern.phases[0].kind == .holdOut else { return pattern }
            var open = pattern
            open.phases[0].isOpen = true
            marked = true
            return open
        }
        return marked ? copy : nil
    }

    /// The session as live playback compiles it: every open phase lasts `maximumMicroseconds` (or its stated
    /// length when longer), so all that follows it is scheduled, and enter ends it early by a seek.
    public func withOpenPhasesLasting(_ maximumMicroseconds: Int64) -> Session {
        var copy = self
        copy.stages = Self.mapStages(stages) { pattern, length in
            guard pattern.phases.contains(where: \.isOpen) else { return .pattern(pattern, length) }
            var stretched = pattern
            for index in stretched.phases.indices where stretched.phases[index].isOpen {
                stretched.phases[index].durationMicroseconds = max(stretched.phases[index].durationMicroseconds, maximumMicroseconds)
            }
            // The cycle count the stated lengths give, kept: a longer hold must not mean fewer breaths.
            return .pattern(stretched, .cycles(length.cycleCount(cycleMicroseconds: pattern.cycleMicroseconds)))
        }
        return copy
    }

    /// `stages` with `transform` applied to every pattern (ramps are left as they are).
    private static func mapPatterns(_ stages: [Stage], _ transform: (Pattern) -> Pattern) -> [Stage] {
        mapStages(stages) { pattern, length in .pattern(transform(pattern), length) }
    }

    /// `stages` with every pattern stage replaced by `transform`'s stage (ramps are left as they are).
    private static func mapStages(_ stages: [Stage], _ transform: (Pattern, SessionLength) -> Stage) -> [Stage] {
        stages.map { stage in
            switch stage {
            case let .pattern(pattern, length):
                return transform(pattern, length)
            case .ramp:
                return stage
            case let .group(count, inner):
                return .group(count: count, stages: mapStages(inner, transform))
            case let .labelled(label, inner):
                return .labelled(label, mapStages([inner], transform)[0])
            }
        }
    }
}
