/// The front door's reading of a request's head (its line and headers, up to the blank line) as bytes, before
/// libmicrohttpd parses it: whether it is whole yet, and whether it is one nagi answers itself (malformed or too
/// large), so that every answer, these included, carries nagi's security headers.
///
/// Stricter than libmicrohttpd where the two could read one head two ways, and with limits below its memory pool
/// (`HTTPServer.Limits`), so that the library never meets a head it would answer itself.
struct RequestHeadCheck: Sendable {
    /// What the bytes seen so far say.
    enum Verdict: Equatable, Sendable {
        /// Not whole yet, and nothing wrong so far: wait for more.
        case incomplete
        /// Whole and well formed: hand the connection to libmicrohttpd.
        case complete
        /// Answer `status` with `message` (one line for the client) and close.
        case refuse(status: Int, message: String)
    }

    /// The longest request line taken, in bytes (its end of line excluded); a longer one is 414.
    var requestLineByteCount: Int
    /// The longest head taken, in bytes (its blank line included); a longer one is 431.
    var headByteCount: Int
    /// The most header lines taken; more is 431 (each costs libmicrohttpd memory from the same pool).
    var headerLineCount: Int

    /// The verdict on `bytes`, the start of what the client sent (the head and maybe more, which is not looked at).
    func verdict(_ bytes: UnsafeRawBufferPointer) -> Verdict {
        var lineStart = 0
        var lineIndex = 0
        var isHTTP11 = false
        var hasHost = false
        var index = 0
        // Empty lines before the request line are tolerated (RFC 9112 2.2): a client may send one after a body.
        var sawRequestLine = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0 { return .refuse(status: 400, message: "the request holds a NUL character") }
            if byte == Self.carriageReturn, index + 1 < bytes.count, bytes[index + 1] != Self.lineFeed {
                return .refuse(status: 400, message: "the request holds a carriage return not followed by a line feed")
            }
            if byte != Self.lineFeed {
                if !sawRequestLine, index - lineStart >= requestLineByteCount, byte != Self.carriageReturn {
                    return .refuse(status: 414, message: "the request line is longer than \(requestLineByteCount / 1024) KiB")
                }
                if index >= headByteCount { return Self.headTooLarge(headByteCount) }
                index += 1
                continue
            }
            // A line ends at `index`; its text excludes a CR before the LF.
            let lineEnd = index > lineStart && bytes[index - 1] == Self.carriageReturn ? index - 1 : index
            let line = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd])
            index += 1
            lineStart = index
            if index > headByteCount { return Self.headTooLarge(headByteCount) }
            if !sawRequestLine {
                if line.isEmpty { continue }
                sawRequestLine = true
                guard let version = Self.requestLineVersion(line) else {
                    return .refuse(status: 400, message: "the request line is not METHOD TARGET HTTP/1.x")
                }
                isHTTP11 = version == 1
                continue
            }
            if line.isEmpty {
                if isHTTP11, !hasHost { return .refuse(status: 400, message: "an HTTP/1.1 request needs a Host header") }
                return .complete
            }
            lineIndex += 1
            if lineIndex > headerLineCount {
                return .refuse(status: 431, message: "the request has more than \(headerLineCount) header lines")
            }
            guard let nameLength = Self.headerNameLength(line) else {
                return .refuse(status: 400, message: "a header line is not NAME: VALUE")
            }
            if nameLength == 4, Self.lowercased(UnsafeRawBufferPointer(rebasing: line[0..<4])) == Array("host".utf8) { hasHost = true }
        }
        return .incomplete
    }

    /// The Host header's value in `bytes` (a head), when it is a plain host name or address (letters, digits, `.`,
    /// `-`, `[`, `]`, `:`), without its port; nil otherwise.
    static func hostName(in bytes: UnsafeRawBufferPointer) -> String? {
        // Split as bytes: in a Swift string "\r\n" is one character, which no split on "\n" finds.
        for lineBytes in bytes.split(separator: lineFeed).dropFirst() {
            let line = String(decoding: lineBytes.filter { $0 != carriageReturn && $0 != UInt8(ascii: "\t") }, as: UTF8.self)
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "host" else { continue }
            let value = String(line[line.index(after: colon)...]).trimmingSpaces()
            guard !value.isEmpty, value.count <= 255, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-[]:".contains($0)) }) else { return nil }
            // The port is the server's own, added by the caller; an IPv6 literal keeps its brackets.
            if value.hasPrefix("["), let close = value.firstIndex(of: "]") { return String(value[...close]) }
            return value.split(separator: ":").first.map(String.init)
        }
        return nil
    }

    private static let carriageReturn = UInt8(ascii: "\r")
    private static let lineFeed = UInt8(ascii: "\n")

    private static func headTooLarge(_ byteCount: Int) -> Verdict {
        .refuse(status: 431, message: "the request's headers are longer than \(byteCount / 1024) KiB")
    }

    /// The minor version of a request line `METHOD SP target SP HTTP/1.x` (0 or 1…), nil when it is not one.
    private static func requestLineVersion(_ line: UnsafeRawBufferPointer) -> Int? {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte), !parts[1].isEmpty,
              parts[1].allSatisfy({ $0 > 0x20 && $0 != 0x7F })
        else { return nil }
        let version = Array(parts[2])
        guard version.count == 8, version.starts(with: Array("HTTP/1.".utf8)), let minor = version.last,
              (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(minor)
        else { return nil }
        return Int(minor - UInt8(ascii: "0"))
    }

    /// The length of a header line's name, which must be a token followed at once by a colon (no space before it,
    /// which two parsers read two ways; no folded continuation line); nil when the line is not `NAME: VALUE`.
    private static func headerNameLength(_ line: UnsafeRawBufferPointer) -> Int? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              line[0..<colon].allSatisfy(isTokenByte)
        else { return nil }
        return colon
    }

    /// Whether `byte` may be part of a method or a header name (RFC 9110's tchar).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    private static func lowercased(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        bytes.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }
    }
}
