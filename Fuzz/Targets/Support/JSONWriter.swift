import Breath

/// Writes a parsed JSONValue back as JSON text (keys in document order, numbers as their literal text),
/// so a target can check that parse(write(parse(x))) == parse(x).
enum JSONWriter {
    static func text(_ value: JSONValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    private static func write(_ value: JSONValue, to out: inout String) {
        switch value {
        case .null: out += "null"
        case let .bool(flag): out += flag ? "true" : "false"
        case let .number(_, text): out += text
        case let .string(text): quote(text, to: &out)
        case let .array(elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                write(element, to: &out)
            }
            out += "]"
        case let .object(members, keys):
            out += "{"
            for (index, key) in keys.enumerated() {
                if index > 0 { out += "," }
                quote(key, to: &out)
                out += ":"
                if let member = members[key] { write(member, to: &out) } else { out += "MISSING" }
            }
            out += "}"
        }
    }

    private static func quote(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
