import CNagiHTTP

/// One HTTP request as the server's handler sees it: its line, its headers and its whole body (bounded).
package struct HTTPRequest: Sendable {
    /// "GET", "POST", "HEAD"…
    package var method: String
    /// The path, percent-decoded, without the query ("/api/render.wav").
    package var path: String
    /// The query's parameters, percent-decoded, in the order given (a name may repeat).
    package var query: [(name: String, value: String)]
    /// The headers, names in lower case; a repeated header keeps its last value.
    package var headers: [String: String]
    /// The body (a POST's upload); empty for most requests.
    package var body: [UInt8]
    /// Whether the body was larger than the server takes (it was then dropped, not kept).
    package var bodyTooLarge: Bool
    /// The connection's socket, to see whether its client is still there (-1: unknown, taken as there).
    package var clientSocket: Int32 = -1

    package init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [String: String] = [:], body: [UInt8] = [], bodyTooLarge: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.bodyTooLarge = bodyTooLarge
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

    /// The value of the header `name` (any case), nil when absent.
    package func header(_ name: String) -> String? {
        headers[name.lowercased()]
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
