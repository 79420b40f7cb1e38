/// One range of a `Range: bytes=…` header, resolved against a body of known size: `first...last`, both inclusive.
struct ByteRange: Equatable {
    var first: Int64
    var last: Int64

    /// Reads `bytes=FIRST-`, `bytes=FIRST-LAST` or `bytes=-SUFFIX` against `totalByteCount`; nil for anything else
    /// (several ranges, another unit, a range that starts past the end), which is answered 416.
    init?(parsing header: String, totalByteCount: Int64) {
        let text = header.trimmingSpaces()
        guard text.hasPrefix("bytes="), totalByteCount > 0 else { return nil }
        let spec = text.dropFirst("bytes=".count)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let firstText = spec[..<dash]
        let lastText = spec[spec.index(after: dash)...]
        if firstText.isEmpty {
            guard let suffix = Self.number(lastText), suffix > 0 else { return nil }
            first = max(0, totalByteCount - suffix)
            last = totalByteCount - 1
            return
        }
        guard let first = Self.number(firstText), first < totalByteCount else { return nil }
        self.first = first
        if lastText.isEmpty {
            last = totalByteCount - 1
        } else {
            guard let last = Self.number(lastText), last >= first else { return nil }
            self.last = min(last, totalByteCount - 1)
        }
    }

    /// A whole decimal number of at most 18 digits.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}

extension String {
    /// The text without its leading and trailing spaces.
    func trimmingSpaces() -> Substring {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
