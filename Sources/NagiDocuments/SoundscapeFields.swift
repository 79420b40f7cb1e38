import Synth

/// Required-member readers for soundscape presets: every number of the sound design must be written in the
/// preset, so a missing key is an error naming its JSON path, like a wrong type or an unknown key; and the
/// faults Synth finds in the values read, named at their JSON paths.
extension JSONFields {
    /// A number member that must be present and within `range`.
    func requiredNumber(_ key: String, in range: ClosedRange<Double>) throws(ContentError) -> Double {
        guard let value = try number(key, in: range) else {
            throw error(key, "missing; expected a number in \(Self.format(range.lowerBound))...\(Self.format(range.upperBound))")
        }
        return value
    }

    /// A string member shown to people that must be present: one line of visible text (`displayText`).
    func requiredDisplayText(_ key: String) throws(ContentError) -> String {
        guard let value = try displayText(key) else { throw error(key, "missing; expected a string") }
        return value
    }

    /// An object member that must be present.
    func requiredObject(_ key: String) throws(ContentError) -> JSONFields {
        guard let value = try object(key) else { throw error(key, "missing; expected an object") }
        return value
    }

    /// A number array member that must be present, with `counts` elements, each within `range`.
    func requiredNumbers(_ key: String, in range: ClosedRange<Double>, counts: ClosedRange<Int>) throws(ContentError) -> [Double] {
        guard let values = try numbers(key, in: range) else {
            throw error(key, "missing; expected an array of \(counts.lowerBound) to \(counts.upperBound) numbers")
        }
        guard counts.contains(values.count) else {
            throw error(key, "expected \(counts.lowerBound) to \(counts.upperBound) numbers, found \(values.count)")
        }
        return values
    }

    /// An array of objects that must be present, with `counts` elements, each wrapped with its path.
    func requiredObjects(_ key: String, counts: ClosedRange<Int>) throws(ContentError) -> [JSONFields] {
        guard let elements = try array(key) else {
            throw error(key, "missing; expected an array of \(counts.lowerBound) to \(counts.upperBound) objects")
        }
        guard counts.contains(elements.count) else {
            throw error(key, "expected \(counts.lowerBound) to \(counts.upperBound) objects, found \(elements.count)")
        }
        var objects: [JSONFields] = []
        for (value, elementPath) in elements {
            objects.append(try JSONFields(value, file: file, path: elementPath))
        }
        return objects
    }

    /// The numbers of a soundscape section, by its field table: refuses a key that is neither one of its fields nor
    /// one of `nested` (the members the caller reads as objects), then reads each field, required, of its type and
    /// within its range, any fault named at its path.
    func values<Section: SoundscapeSection>(of _: Section.Type, nested: [String] = []) throws(ContentError) -> SoundscapeValues<Section> {
        let table = Section.fields
        try rejectUnknownKeys(allowed: table.map(\.key) + nested)
        var values = SoundscapeValues<Section>()
        for field in table {
            switch field.place {
            case .number(let keyPath): values[keyPath] = try requiredNumber(field.key, in: field.range)
            case .numbers(let keyPath, let counts): values[keyPath] = try requiredNumbers(field.key, in: field.range, counts: counts)
            }
        }
        return values
    }

    /// A section with no nested objects, read by its field table and built by its checked initializer.
    func section<Section: DecodableSoundscapeSection>(_: Section.Type) throws(ContentError) -> Section {
        let values = try values(of: Section.self)
        return try checking { () throws(SoundscapeError) in try Section(values) }
    }

    /// `make()`, a soundscape value checked by Synth, with its fault named at its path under this object.
    func checking<Value>(_ make: () throws(SoundscapeError) -> Value) throws(ContentError) -> Value {
        do {
            return try make()
        } catch {
            throw self.error(error.field, error.reason)
        }
    }
}
