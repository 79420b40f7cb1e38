import Synth

/// The numbers of one soundscape section as a document gave them, each read and range-checked by the section's
/// field table (`JSONFields.values(of:)`), looked up by the field's key path to fill the section's initializer.
struct SoundscapeValues<Section: SoundscapeSection> {
    private var numbers: [AnyKeyPath: Double] = [:]
    private var lists: [AnyKeyPath: [Double]] = [:]

    /// The value read for a number field. A key path outside the table reads NaN, which the section's own range
    /// check then refuses, so a decoder that names a field its table lacks fails loudly in every test.
    subscript(_ keyPath: KeyPath<Section, Double>) -> Double {
        get { numbers[keyPath] ?? .nan }
        set { numbers[keyPath] = newValue }
    }

    /// The numbers read for a list field (none for a key path outside the table, which the count check refuses).
    subscript(_ keyPath: KeyPath<Section, [Double]>) -> [Double] {
        get { lists[keyPath] ?? [] }
        set { lists[keyPath] = newValue }
    }
}
