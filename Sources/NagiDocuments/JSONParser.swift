/// A small strict JSON parser (RFC 8259) with the limits a hostile file needs: nesting depth, duplicate
/// keys, a byte-order mark, invalid UTF-8 — each a one-line error naming the place.
public struct JSONParser {
    /// The deepest nesting accepted; deeper documents are refused, never a stack overflow.
    public static let depthLimit = 64

    private let bytes: [UInt8]
    private let file: String
    private var index = 0

    /// Parses a whole document; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(ContentError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, file: file)
        return try parser.parseDocument()
    }

    /// Parses a whole document from text.
    public static func parse(_ text: String, file: String) throws(ContentError) -> JSONValue {
        try parse(Array(text.utf8), file: file)
    }

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    private mutating func parseDocument() throws(ContentError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw fail("the file starts with a byte-order mark; save it as UTF-8 without BOM")
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw fail("the file is not valid UTF-8 text")
        }
        skipSpace()
        guard index < bytes.count else { throw fail("the file is empty; expected a JSON object") }
        let value = try parseValue(depth: 0)
        skipSpace()
        guard index == bytes.count else { throw fail("unexpected text after the JSON value") }
        return value
    }

    /// An error at the current position, as line and column.
    private func fail(_ reason: String) -> ContentError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return ContentError(file: file, path: "line \(line), column \(column)", reason: "invalid JSON: \(reason)")
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func parseValue(depth: Int) throws(ContentError) -> JSONValue {
        guard depth < Self.depthLimit else { throw fail("nested deeper than \(Self.depthLimit) levels") }
        skipSpace()
        guard index < bytes.count else { throw fail("the document ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character; expected a value")
        }
    }

    private mutating func expectWord(_ word: String) throws(ContentError) {
        let wordBytes = Array(word.utf8)
        guard bytes.count - index >= wordBytes.count, Array(bytes[index..<index + wordBytes.count]) == wordBytes else {
            throw fail("unexpected word; expected \(word)")
        }
        index += wordBytes.count
    }

    private mutating func parseObject(depth: Int) throws(ContentError) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        var keys: [String] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members, keys: keys)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key in double quotes") }
            let key = try parseString()
            guard members[key] == nil else { throw fail("the key \"\(key)\" appears twice") }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':' after the key \"\(key)\"") }
            index += 1
            members[key] = try parseValue(depth: depth + 1)
            keys.append(key)
            skipSpace()
            guard index < bytes.count else { throw fail("the object is not closed; expected '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members, keys: keys) }
            throw fail("expected ',' or '}' in the object")
        }
    }

    private mutating func parseArray(depth: Int) throws(ContentError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw fail("the array is not closed; expected ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw fail("expected ',' or ']' in the array")
        }
    }

    private mutating func parseString() throws(ContentError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var pending: [UInt8] = []
        func flush() {
            if !pending.isEmpty {
                scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
                pending.removeAll()
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                flush()
                return String(scalars)
            }
            if byte < 0x20 { throw fail("a control character inside a string; escape it") }
            if byte == UInt8(ascii: "\\") {
                flush()
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("a lone UTF-16 surrogate in \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("a lone UTF-16 surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("a lone UTF-16 surrogate in \\u escape") }
                    scalars.append(scalar)
                default:
                    throw fail("unknown escape in a string")
                }
                continue
            }
            pending.append(byte)
            index += 1
        }
        throw fail("the string is not closed; expected '\"'")
    }

    private mutating func parseHex4() throws(ContentError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw fail("a \\u escape needs four hex digits") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("a \\u escape needs four hex digits")
            }
            code = code * 16 + digit
            index += 1
        }
        return code
    }

    private mutating func parseNumber() throws(ContentError) -> JSONValue {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard digits() > 0 else { throw fail("a number needs digits") }
        if bytes[integerStart] == UInt8(ascii: "0") && index - integerStart > 1 { throw fail("a number may not have leading zeros") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw fail("a number needs digits after the decimal point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("a number needs digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw fail("the number \(text) is out of range") }
        return .number(value, text: text)
    }
}
