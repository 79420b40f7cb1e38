/// A pace stated the way resonance-breathing and HRV users state it: breaths a minute and a ratio.
///
/// One breath lasts 60/N s, rounded up to the whole microsecond, so it is exact wherever 60/N s is a whole
/// number of microseconds (6 → 10 s, 5.5 → 10.909091 s) and never shorter than asked: a step of whole breaths
/// meant to last two minutes never falls short by the rounding. Inside the breath, each phase boundary is the
/// exact share of that cycle rounded half up to the microsecond, so the phases add up to the cycle exactly.
public struct BreathPace: Sendable, Equatable {
    /// Breaths a minute nagi accepts, in thousandths (1 to 30, at most 3 decimals).
    public static let rateRange: ClosedRange<Int64> = 1000...30_000

    /// A value that is not a pace, with what would be accepted.
    public struct InvalidText: Error, Equatable, Sendable {
        /// What a valid value looks like ("a number of breaths a minute from 1 to 30 ...").
        public var expected: String
    }

    /// Breaths a minute, in thousandths (6.5 → 6500).
    public let milliBreathsPerMinute: Int64
    /// How each breath divides its time.
    public var ratio: BreathRatio

    /// What `init(breathsPerMinute:ratio:)` accepts, for messages.
    public static let expectedRate = "a number of breaths a minute from 1 to 30 with at most 3 decimals, like 6 or 5.5"

    /// Parses the rate written as decimal text ("6", "5.5").
    public init(breathsPerMinute text: String, ratio: BreathRatio = .even) throws(InvalidText) {
        guard let thousandths = Microseconds.parseDecimal(Substring(text), unitMicroseconds: 1000), Self.rateRange.contains(thousandths) else {
            throw InvalidText(expected: Self.expectedRate)
        }
        milliBreathsPerMinute = thousandths
        self.ratio = ratio
    }

    /// The rate as written ("6.5").
    public var rateText: String {
        Microseconds.formatSeconds(milliBreathsPerMinute * 1000)
    }

    /// One breath: 60/N s rounded up to the whole microsecond.
    public var cycleMicroseconds: Int64 {
        let numerator = 60 * Microseconds.perSecond * 1000
        return (numerator + milliBreathsPerMinute - 1) / milliBreathsPerMinute
    }

    /// One breath as a pattern; a part that rounds to 0 µs (a hold of 0) is left out.
    public var pattern: Pattern {
        let cycle = cycleMicroseconds
        let parts = ratio.partThousandths
        let total = parts.reduce(0, +)
        var phases: [Phase] = []
        var cumulative: Int64 = 0
        var previousBoundary: Int64 = 0
        for (kind, part) in zip(ratio.kinds, parts) {
            cumulative += part
            // round(cycle × cumulative / total), half up; at most 6·10⁷ × 4·10⁶ × 2, far inside Int64.
            let boundary = (2 * cycle * cumulative + total) / (2 * total)
            if boundary > previousBoundary {
                phases.append(Phase(kind: kind, durationMicroseconds: boundary - previousBoundary))
            }
            previousBoundary = boundary
        }
        var pattern = Pattern(title: "\(rateText) breaths a minute, \(ratio.text)", phases: phases)
        pattern.pace = self
        return pattern
    }
}
