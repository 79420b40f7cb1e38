import Breath

/// Small helpers for writing JSON text by hand, deterministically.
public enum JSONText {
    /// A JSON string literal with the required escapes.
    public static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A finite number with up to 6 decimals ("0.5", "3.157895"); non-finite values become 0.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let scaled = (value * 1_000_000).rounded()
        if abs(scaled) >= 9e15 { return String(value) }
        return Microseconds.formatSeconds(Int64(scaled))
    }
}
