/// A soundscape value that cannot be: a number outside its range, or at odds with another. The field is named
/// as Synth's types name it, from the value that refused it (`highFrequencyHz`, `inhale.noteSpacingSeconds`,
/// `waterHarmonics[1]`), so a document's decoder can say where in its file the value came from.
public struct SoundscapeError: Error, Equatable, Sendable {
    /// The field at fault, relative to the value whose initializer threw.
    public var field: String
    /// What is wrong and what would be right.
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// `value`, when `range` holds it; else an error naming `field`.
    static func checked(_ value: Double, _ field: String, in range: ClosedRange<Double>) throws(SoundscapeError) -> Double {
        guard range.contains(value) else {
            throw SoundscapeError(field: field, reason: "\(text(value)) is outside \(text(range.lowerBound))...\(text(range.upperBound))")
        }
        return value
    }

    /// `values`, when there are `counts` of them and `range` holds each; else an error naming `field` or the element.
    static func checked(_ values: [Double], _ field: String, in range: ClosedRange<Double>, counts: ClosedRange<Int>) throws(SoundscapeError) -> [Double] {
        guard counts.contains(values.count) else {
            throw SoundscapeError(field: field, reason: "expected \(counts.lowerBound) to \(counts.upperBound) numbers, found \(values.count)")
        }
        for (index, value) in values.enumerated() { _ = try checked(value, "\(field)[\(index)]", in: range) }
        return values
    }

    /// A number as a document would write it: whole numbers without a fraction.
    static func text(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
