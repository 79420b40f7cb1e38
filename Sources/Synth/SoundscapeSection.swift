/// A group of a soundscape's parameters (the tone, the rain, a chime …) whose numbers one table describes.
public protocol SoundscapeSection {
    /// Every number field with its key and range, in the order they are checked.
    static var fields: [SoundscapeField<Self>] { get }
}

extension SoundscapeSection {
    /// Refuses the first field (in table order) outside its range; the rules that tie one field to another are the
    /// section's initializer's, after this.
    func checkFields() throws(SoundscapeError) {
        for field in Self.fields { try field.check(self) }
    }
}
