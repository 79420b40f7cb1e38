/// The phases of a ramp paired up: each lane moves one phase's length from its `from` to its `to` value.
struct RampLanes: Sendable {
    /// One phase's course through the ramp.
    struct Lane: Sendable {
        var kind: PhaseKind
        var fromMicroseconds: Int64
        var toMicroseconds: Int64
        var targetLevel: Double?
        var spokenWords: String?

        /// The length in cycle `cycle` of `cycleCount`, linear and exact in integers (rounded half up).
        func length(cycle: Int, of cycleCount: Int) -> Int64 {
            guard cycleCount > 1 else { return fromMicroseconds }
            let span = toMicroseconds - fromMicroseconds
            let steps = Int64(cycleCount - 1)
            let numerator = span * Int64(cycle)
            // Round half away from zero so the ramp is symmetric in both directions.
            let offset = numerator >= 0 ? (numerator + steps / 2) / steps : -((-numerator + steps / 2) / steps)
            return fromMicroseconds + offset
        }
    }

    var lanes: [Lane]

    /// Pairs the phases of two patterns: the same kinds in the same order pair one to one; two patterns that
    /// each use a kind at most once in the order inhale, holdIn, exhale, holdOut pair by kind, a missing phase
    /// counting as 0 s (so a ramp can grow a hold from nothing).
    init(from: Pattern, to: Pattern) throws(BreathError) {
        if from.phases.map(\.kind) == to.phases.map(\.kind) {
            lanes = zip(from.phases, to.phases).map {
                Lane(kind: $0.kind, fromMicroseconds: $0.durationMicroseconds, toMicroseconds: $1.durationMicroseconds, targetLevel: $0.targetLevel, spokenWords: $0.spokenWords ?? $1.spokenWords)
            }
            return
        }
        let order: [PhaseKind] = [.inhale, .holdIn, .exhale, .holdOut]
        func byKind(_ pattern: Pattern) -> [PhaseKind: Phase]? {
            var table: [PhaseKind: Phase] = [:]
            var lastIndex = -1
            for phase in pattern.phases {
                guard let index = order.firstIndex(of: phase.kind), index > lastIndex else { return nil }
                lastIndex = index
                table[phase.kind] = phase
            }
            return table
        }
        guard let fromTable = byKind(from), let toTable = byKind(to) else {
            throw .limitExceeded(reason: "a ramp needs two patterns with the same phases in the same order (or simple inhale-hold-exhale-hold patterns)")
        }
        lanes = order.compactMap { kind in
            let start = fromTable[kind]
            let end = toTable[kind]
            guard start != nil || end != nil else { return nil }
            return Lane(kind: kind, fromMicroseconds: start?.durationMicroseconds ?? 0, toMicroseconds: end?.durationMicroseconds ?? 0, targetLevel: start?.targetLevel ?? end?.targetLevel, spokenWords: start?.spokenWords ?? end?.spokenWords)
        }
    }

    var fromMicroseconds: Int64 { lanes.reduce(0) { $0 + $1.fromMicroseconds } }
    var toMicroseconds: Int64 { lanes.reduce(0) { $0 + $1.toMicroseconds } }

    /// Cycles for a length: with linear lengths the mean cycle is (from + to) / 2.
    func cycleCount(for length: SessionLength) -> Int {
        length.cycleCount(cycleMicroseconds: (fromMicroseconds + toMicroseconds) / 2)
    }

    /// The exact total of `cycles` cycles, in closed form: a session measures its stages again at every level
    /// of nesting, and a loop over the cycles made a 450 KB course of nested ramps take 15 s to decode.
    /// Callers keep lanes × cycles within the phase limit and each lane within 24 h, so nothing overflows.
    func totalMicroseconds(cycles: Int) -> Int64 {
        var total: Int64 = 0
        let count = Int64(max(cycles, 0))
        for lane in lanes {
            total += lane.fromMicroseconds * count
            guard count > 1 else { continue }
            // Σ over cycles of the rounded offset in Lane.length: span·c rounds half away from zero, so its
            // magnitude is floor((|span|·c + steps / 2) / steps) and its sign is the span's.
            let span = lane.toMicroseconds - lane.fromMicroseconds
            let steps = count - 1
            let magnitude = Self.floorSum(count: count, modulus: steps, factor: span.magnitude, offset: UInt64(steps / 2))
            total += span < 0 ? -Int64(magnitude) : Int64(magnitude)
        }
        return total
    }

    /// Σ floor((factor·i + offset) / modulus) for i in 0..<count, by the Euclidean-like reduction
    /// (O(log) steps). With factor ≤ 24 h in µs and count ≤ the phase limit every product stays below 2^63.
    static func floorSum(count: Int64, modulus: Int64, factor: UInt64, offset: UInt64) -> UInt64 {
        var n = UInt64(count)
        var m = UInt64(modulus)
        var a = factor
        var b = offset
        var sum: UInt64 = 0
        while true {
            if a >= m {
                sum += (n - 1) * n / 2 * (a / m)
                a %= m
            }
            if b >= m {
                sum += n * (b / m)
                b %= m
            }
            let top = a * n + b
            if top < m { return sum }
            n = top / m
            b = top % m
            swap(&m, &a)
        }
    }
}
