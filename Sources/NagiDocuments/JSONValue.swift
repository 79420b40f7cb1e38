/// A parsed JSON document, keeping each number's text so durations convert exactly.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number with its value and its literal text ("5.5").
    case number(Double, text: String)
    case string(String)
    case array([JSONValue])
    /// An object's members, and its keys in document order.
    case object([String: JSONValue], keys: [String])

    /// The JSON type's name, for messages ("a number", "an object").
    public var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
