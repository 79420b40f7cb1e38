/// Text rewritten scalar by scalar for a format that reserves some characters (JSON strings, SVG's XML).
/// The reserved characters are ASCII, so they are looked up in a 128-entry table: as fast as a `switch`.
public struct TextEscaping: Sendable {
    /// The escape of each ASCII scalar, indexed by its value; nil keeps the scalar (or hands a control
    /// character to `control`).
    private let asciiEscapes: [String?]
    /// What any other control character (below U+0020) becomes; an empty string drops it.
    private let control: @Sendable (Unicode.Scalar) -> String

    /// `escapes` names the ASCII characters the format replaces, and with what.
    public init(_ escapes: [Unicode.Scalar: String], control: @escaping @Sendable (Unicode.Scalar) -> String) {
        precondition(escapes.keys.allSatisfy(\.isASCII), "only ASCII characters are escaped by table")
        var table = [String?](repeating: nil, count: 128)
        for (scalar, escape) in escapes {
            table[Int(scalar.value)] = escape
        }
        asciiEscapes = table
        self.control = control
    }

    /// `text` with each named character replaced by its escape, every other control character by
    /// `control(scalar)`, and the rest kept as it is.
    public func escaping(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, let escape = asciiEscapes[Int(scalar.value)] {
                result += escape
            } else if scalar.value < 0x20 {
                result += control(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
