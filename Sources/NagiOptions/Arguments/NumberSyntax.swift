/// Strict readers for numbers typed on a command line.
///
/// Swift's `Double(_:)` also accepts `nan`, `inf`, `0x1p3` and more; a duration or a rate must be
/// plain ASCII decimal, so the text is checked byte by byte before conversion.
package enum NumberSyntax {
    private static let zero = UInt8(ascii: "0")
    private static let nine = UInt8(ascii: "9")

    /// `[+-]?[0-9]+` that fits in `Int`, else `nil`.
    package static func wholeNumber(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        var index = skipSign(bytes)
        let digitsStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        guard index > digitsStart, index == bytes.count else { return nil }
        return Int(text)  // nil on overflow
    }

    /// `[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?` whose value is finite, else `nil`.
    /// Negative zero reads as zero.
    package static func decimal(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var index = skipSign(bytes)
        var mantissaDigitCount = 0
        while index < bytes.count, isDigit(bytes[index]) { index += 1; mantissaDigitCount += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1; mantissaDigitCount += 1 }
        }
        guard mantissaDigitCount > 0 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            let exponentStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > exponentStart else { return nil }
        }
        guard index == bytes.count, let value = Double(text), value.isFinite else { return nil }
        return value + 0.0  // -0.0 + 0.0 == +0.0
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }

    private static func skipSign(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") else { return 0 }
        return 1
    }
}
