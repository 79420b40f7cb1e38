import FoundationEssentials

/// The one way nagi writes JSON: an `Encodable` value through Foundation's `JSONEncoder`, its keys sorted so one
/// value always gives one text (the API's answer and the command line's are byte for byte the same), slashes
/// unescaped: compact on one line for an answer or a log line, indented for a file a person may open. Every JSON
/// nagi writes goes through here; types of the portable core (NagiDocuments, no Foundation) are `Encodable` and
/// are written from the layers above.
///
/// Absent values a reader expects as `null` are `JSONNullable`; numbers nagi rounds (seconds, figures) are
/// `JSONDecimal`, which also keeps a non-finite value (which `JSONEncoder` refuses) out.
package enum JSONOutput {
    /// `value` as compact JSON and a newline: an answer of the API, a line of a log.
    package static func line<Value: Encodable>(_ value: Value) -> String {
        encoded(value, formatting: [])
    }

    /// `value` as JSON indented two spaces a level and a newline: a file a person may open (a course's progress,
    /// an export's manifest).
    package static func document<Value: Encodable>(_ value: Value) -> String {
        encoded(value, formatting: .prettyPrinted)
    }

    /// `value` through the one encoder's settings, with `formatting` added.
    private static func encoded<Value: Encodable>(_ value: Value, formatting: JSONEncoder.OutputFormatting) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting.union([.sortedKeys, .withoutEscapingSlashes])
        // Encoding fails only for a non-finite Double, which every figure written goes through `JSONDecimal` to avoid;
        // should one slip through, the text says so rather than the program stopping.
        guard let data = try? encoder.encode(value) else { return "{\"error\": \"a value could not be written as JSON\"}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// An optional written as JSON `null` when absent: `Encodable`'s synthesized encoding leaves an absent optional out,
/// and the pages and scripts read `null`.
package struct JSONNullable<Wrapped: Encodable>: Encodable {
    package var value: Wrapped?

    package init(_ value: Wrapped?) {
        self.value = value
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

/// A number written with at most 6 decimals (`0.5`, `3.157895`), as nagi states seconds and figures; a non-finite
/// value is written as 0.
package struct JSONDecimal: Encodable, Equatable {
    package var value: Double

    package init(_ value: Double) {
        self.value = value
    }

    /// Microseconds as seconds, exactly (`10909091` → `10.909091`).
    package init(microseconds: Int64) {
        value = Double(microseconds) / 1_000_000
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        guard value.isFinite else { return try container.encode(0) }
        let scaled = (value * 1_000_000).rounded()
        try container.encode(abs(scaled) >= 9e15 ? value : scaled / 1_000_000)
    }
}
