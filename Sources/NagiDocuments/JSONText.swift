import Breath

/// Small helpers for writing JSON text by hand, deterministically.
public enum JSONText {
    /// A JSON string literal with the required escapes.
    public static func quote(_ text: String) -> String {
        "\"" + stringEscaping.escaping(text) + "\""
    }

    /// The characters a JSON string escapes by name; any other control character becomes `\u00XX`.
    private static let stringEscaping = TextEscaping(
        ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"], control: { unicodeEscape($0) })

    /// Any other control character as `\u00XX`.
    private static func unicodeEscape(_ control: Unicode.Scalar) -> String {
        let hex = String(control.value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// A finite number with up to 6 decimals ("0.5", "3.157895"); non-finite values become 0.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let scaled = (value * 1_000_000).rounded()
        if abs(scaled) >= 9e15 { return String(value) }
        return Microseconds.formatSeconds(Int64(scaled))
    }
}
