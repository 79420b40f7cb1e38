/// How a breath divides its time: inhale:exhale (`2:3`) or inhale:hold:exhale:hold (`4:7:8:1`).
public struct BreathRatio: Sendable, Equatable {
    /// The largest part a ratio may have; with at most 3 decimals this keeps the pace arithmetic far inside Int64.
    public static let partLimitThousandths: Int64 = 1_000_000
    /// An even breath, 1:1.
    public static let even = BreathRatio(uncheckedThousandths: [1000, 1000])

    /// The parts in thousandths, in phase order: two (inhale, exhale) or four (inhale, hold, exhale, hold).
    public let partThousandths: [Int64]

    private init(uncheckedThousandths: [Int64]) {
        partThousandths = uncheckedThousandths
    }

    /// What `parse` accepts, for messages.
    public static let expected = "inhale:exhale (like 2:3) or inhale:hold:exhale:hold (like 4:7:8:1), each part a number up to 1000 with at most 3 decimals; inhale and exhale above 0, a hold of 0 is left out"

    /// Parses `A:B` or `A:B:C:D`.
    public static func parse(_ text: String) throws(BreathPace.InvalidText) -> BreathRatio {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 4 else { throw BreathPace.InvalidText(expected: expected) }
        var parts: [Int64] = []
        for field in fields {
            guard let thousandths = Microseconds.parseDecimal(field, unitMicroseconds: 1000, limit: partLimitThousandths) else {
                throw BreathPace.InvalidText(expected: expected)
            }
            parts.append(thousandths)
        }
        let inhale = parts[0]
        let exhale = fields.count == 2 ? parts[1] : parts[2]
        guard inhale > 0, exhale > 0 else { throw BreathPace.InvalidText(expected: expected) }
        return BreathRatio(uncheckedThousandths: parts)
    }

    /// The phase kinds the parts stand for, in order.
    public var kinds: [PhaseKind] {
        partThousandths.count == 4 ? [.inhale, .holdIn, .exhale, .holdOut] : [.inhale, .exhale]
    }

    /// The ratio as written ("2:3", "4:7:8:1", "1.5:2").
    public var text: String {
        partThousandths.map { Microseconds.formatSeconds($0 * 1000) }.joined(separator: ":")
    }
}
