import NagiKit

/// Who may ask the server anything: the checks every request passes before it is routed.
///
/// - Served on loopback, the `Host` header must name this machine (`localhost`, a 127.0.0.0/8 address or `[::1]`,
///   with any port): a page of another site whose name an attacker points at 127.0.0.1 (DNS rebinding) sends its
///   own name and is refused (403).
/// - With a token (by default, on loopback too; only `--no-token` on loopback goes without), every request must carry
///   it — in the query (`?token=…`, as the URL the server prints has it), an `Authorization: Bearer …` header, or
///   the `nagi_token_PORT` cookie a page gets on its first visit — else 401. Compared in constant time. The cookie is
///   named with the port: two servers on one host (cookies ignore ports) keep a token each.
package struct RequestGuard: Sendable {
    /// The token required, nil when none is.
    package let token: String?
    /// Whether the server listens on loopback only.
    package let servesLoopbackOnly: Bool

    /// The cookie that carries the token for a page's later requests: `nagi_token_PORT`.
    package let cookieName: String

    package init(token: String?, servesLoopbackOnly: Bool, port: UInt16) {
        self.token = token
        self.servesLoopbackOnly = servesLoopbackOnly
        cookieName = "nagi_token_\(port)"
    }

    /// What the guard decides about a request.
    package enum Verdict: Equatable, Sendable {
        /// Let it through; `setsCookie` when it brought the token in its query (a first visit).
        case allowed(setsCookie: Bool)
        /// Refused with this status and line.
        case refused(status: Int, message: String)
    }

    /// Checks `request`'s Host and token.
    package func check(_ request: HTTPRequest) -> Verdict {
        if servesLoopbackOnly {
            guard let host = request.header("host"), Self.namesLoopback(host) else {
                return .refused(status: 403, message: "the Host header must name this machine (localhost, 127.0.0.1 or [::1]); a page of another site cannot use this server")
            }
        }
        guard let token else { return .allowed(setsCookie: false) }
        if let given = request.queryValue("token"), Self.equalInConstantTime(given, token) {
            return .allowed(setsCookie: request.cookie(cookieName).map { !Self.equalInConstantTime($0, token) } ?? true)
        }
        if let authorization = request.header("authorization"), authorization.hasPrefix("Bearer "),
           Self.equalInConstantTime(String(authorization.dropFirst(7)), token) {
            return .allowed(setsCookie: false)
        }
        if let cookie = request.cookie(cookieName), Self.equalInConstantTime(cookie, token) {
            return .allowed(setsCookie: false)
        }
        return .refused(status: 401, message: "this server needs its token: open the URL it printed (…/?token=…), or send 'Authorization: Bearer TOKEN'")
    }

    /// Whether `request` offers a token at all (in its query, a Bearer header or this server's cookie): a wrong one is
    /// a guess, which the throttle counts; none is a visitor who has not been given the URL.
    package func offersToken(_ request: HTTPRequest) -> Bool {
        request.queryValue("token") != nil || request.header("authorization")?.hasPrefix("Bearer ") == true || request.cookie(cookieName) != nil
    }

    /// The `Set-Cookie` value that keeps the token for the page's later requests.
    package var cookieHeader: String? {
        token.map { "\(cookieName)=\($0); Path=/; HttpOnly; SameSite=Strict" }
    }

    /// Whether a Host header names this machine: localhost, an IPv4 loopback address or [::1], with or without a port.
    static func namesLoopback(_ host: String) -> Bool {
        var name = Substring(host.lowercased())
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            let rest = name[name.index(after: close)...]
            guard rest.isEmpty || Self.isPortSuffix(rest) else { return false }
            return name[name.index(after: name.startIndex)..<close] == "::1"
        }
        if let colon = name.lastIndex(of: ":") {
            guard Self.isPortSuffix(name[colon...]) else { return false }
            name = name[..<colon]
        }
        if name == "localhost" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in !part.isEmpty && part.count <= 3 && part.allSatisfy { $0.isASCII && $0.isNumber } && (Int(part) ?? 256) <= 255 }
    }

    /// ":8787": a colon and one to five digits.
    private static func isPortSuffix(_ text: Substring) -> Bool {
        text.first == ":" && (2...6).contains(text.count) && text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Whether `given` equals `expected`, taking the same time wherever they differ (a timing attack learns only the
    /// length, which is no secret).
    static func equalInConstantTime(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// The fewest characters a token may have: 16 (a guessed one, at the throttle's pace, takes longer than the
    /// universe has).
    package static let minimumTokenLength = 16

    /// A new token: 24 random bytes from the system's generator, as 48 hex digits.
    package static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for _ in 0..<24 {
            let byte = UInt8.random(in: 0...255, using: &generator)
            text += String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }
        return text
    }
}
