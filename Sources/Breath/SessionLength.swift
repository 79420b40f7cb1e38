/// How long a stage runs: a number of cycles, or a duration rounded to the nearest whole cycle.
public enum SessionLength: Sendable, Equatable {
    /// Exactly this many cycles (at least 1).
    case cycles(Int)
    /// About this long, in microseconds; rounded to whole cycles, at least one.
    case duration(microseconds: Int64)

    /// The number of cycles for a cycle of `cycleMicroseconds`: rounded to the nearest whole cycle, at least 1.
    public func cycleCount(cycleMicroseconds: Int64) -> Int {
        switch self {
        case let .cycles(count):
            return max(1, count)
        case let .duration(microseconds):
            guard cycleMicroseconds > 0, microseconds > 0 else { return 1 }
            // (microseconds + cycle / 2) / cycle, split so a duration near Int64.max cannot overflow.
            let whole = microseconds / cycleMicroseconds
            let remainder = microseconds % cycleMicroseconds
            let count = whole + (remainder >= cycleMicroseconds - cycleMicroseconds / 2 ? 1 : 0)
            return Int(max(1, count))
        }
    }
}
