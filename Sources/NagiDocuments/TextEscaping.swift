/// Text rewritten scalar by scalar for a format that reserves some characters (JSON strings, SVG's XML).
public enum TextEscaping {
    /// `text` with each scalar that `escapes` names replaced by its escape, every other control character
    /// (below U+0020) replaced by `control(scalar)` (an empty string drops it), and the rest kept as it is.
    public static func escaping(_ text: String, _ escapes: [Unicode.Scalar: String], control: (Unicode.Scalar) -> String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if let escape = escapes[scalar] {
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
