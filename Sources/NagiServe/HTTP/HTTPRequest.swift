import CNagiHTTP

/// One HTTP request as the server's handler sees it: its line, its headers and its whole body (bounded).
package struct HTTPRequest: Sendable {
    /// "GET", "POST", "HEAD"…
    package var method: String
    /// The path, percent-decoded, without the query ("/api/render.wav").
    package var path: String
    /// The query's parameters, percent-decoded, in the order given (a name may repeat).
    package var query: [(name: String, value: String)]
    /// Every header as sent, in order, names in lower case (a name may repeat).
    package var headerFields: [(name: String, value: String)]
    /// The body (a POST's upload); empty for most requests.
    package var body: [UInt8]
    /// Whether the body was larger than the server takes (it was then dropped, not kept).
    package var bodyTooLarge: Bool
    /// The client's address as text ("127.0.0.1", "::1"); empty when unknown (a request made in process).
    package var clientAddress: String
    /// Whether the request line held a NUL, raw or percent-encoded (`%00`): C strings would cut what follows it, so
    /// such a request is refused whole.
    package var targetHoldsNUL: Bool
    /// The connection's socket, to see whether its client is still there (-1: unknown, taken as there).
    package var clientSocket: Int32 = -1

    package init(
        method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = [],
        body: [UInt8] = [], bodyTooLarge: Bool = false, clientAddress: String = "", targetHoldsNUL: Bool = false
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headerFields = headers.map { ($0.name.lowercased(), $0.value) }
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        self.clientAddress = clientAddress
        self.targetHoldsNUL = targetHoldsNUL
    }

    /// The last value of the query parameter `name`, nil when absent.
    package func queryValue(_ name: String) -> String? {
        query.last { $0.name == name }?.value
    }

    /// Whether the client has closed or reset its connection while the answer is being made (a render waiting its
    /// turn or being prepared then stops).
    package var isClientGone: Bool {
        nagi_http_peer_gone(clientSocket) != 0
    }

    /// The value of the header `name` (any case), nil when absent; the last when repeated (the guard refuses a
    /// request that repeats a header whose repeats would be ambiguous).
    package func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headerFields.last { $0.name == lowered }?.value
    }

    /// How many times the header `name` (any case) was sent.
    package func headerCount(_ name: String) -> Int {
        let lowered = name.lowercased()
        return headerFields.count { $0.name == lowered }
    }

    /// Whether a NUL is anywhere in the request's target, its decoded query or its headers (a body may be binary).
    package var holdsNUL: Bool {
        targetHoldsNUL || path.utf8.contains(0) || query.contains { $0.name.utf8.contains(0) || $0.value.utf8.contains(0) }
            || headerFields.contains { $0.name.utf8.contains(0) || $0.value.utf8.contains(0) }
    }

    /// The cookie `name` from the `Cookie` header, nil when absent.
    package func cookie(_ name: String) -> String? {
        guard let text = header("cookie") else { return nil }
        for pair in text.split(separator: ";") {
            let trimmed = pair.drop { $0 == " " }
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            if trimmed[..<equals] == name { return String(trimmed[trimmed.index(after: equals)...]) }
        }
        return nil
    }
}
