/// One number (or list of numbers) of a soundscape section: the key a document names it by (the Swift field's
/// name), where the section holds it, and the range it must lie in (for a list, each element's range and how many
/// there may be). A section's fields stand in one table (`SoundscapeSection.fields`) that both its checked
/// initializer and the document decoder walk, so a field's key and range are written once.
public struct SoundscapeField<Section> {
    /// Where the section holds the field's value.
    public enum Place {
        /// One number.
        case number(KeyPath<Section, Double>)
        /// A list of `counts` numbers.
        case numbers(KeyPath<Section, [Double]>, counts: ClosedRange<Int>)
    }

    /// The field's name in Swift and in a document (`lowFrequencyHz`).
    public let key: String
    /// Where the value lives.
    public let place: Place
    /// The range of the number, or of each number of the list.
    public let range: ClosedRange<Double>

    /// A number field.
    public init(_ key: String, _ keyPath: KeyPath<Section, Double>, in range: ClosedRange<Double>) {
        (self.key, self.place, self.range) = (key, .number(keyPath), range)
    }

    /// A list field of `counts` numbers, each within `range`.
    public init(_ key: String, _ keyPath: KeyPath<Section, [Double]>, in range: ClosedRange<Double>, counts: ClosedRange<Int>) {
        (self.key, self.place, self.range) = (key, .numbers(keyPath, counts: counts), range)
    }

    /// Refuses `section`'s value of this field when it is outside the range (or the list's length outside its counts).
    func check(_ section: Section) throws(SoundscapeError) {
        switch place {
        case .number(let keyPath): _ = try SoundscapeError.checked(section[keyPath: keyPath], key, in: range)
        case .numbers(let keyPath, let counts): _ = try SoundscapeError.checked(section[keyPath: keyPath], key, in: range, counts: counts)
        }
    }
}
