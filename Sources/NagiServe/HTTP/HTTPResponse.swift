/// What the server answers: a status, headers and a body held in memory or produced while it is sent.
package struct HTTPResponse: Sendable {
    /// A body.
    package enum Body: Sendable {
        /// Bytes in memory.
        case bytes([UInt8])
        /// Bytes a producer writes while they are sent; `byteCount` nil sends them chunked.
        case stream(HTTPBodyStream, byteCount: Int64?)
    }

    /// The status code (200, 206, 404…).
    package var status: Int
    /// Header names and values, in order (Content-Length is the transport's, from the body; but `headOnly()`'s).
    package var headers: [(name: String, value: String)]
    package var body: Body

    package init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response of `text` as UTF-8 with `contentType`.
    package static func text(_ text: String, contentType: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: .bytes(Array(text.utf8)))
    }

    /// This response as a HEAD request gets it in process (where no transport states the length): the same status and
    /// headers, the length the body would have (`Content-Length`, when known), and no body; a streamed body's
    /// producer is told to stop.
    package func headOnly() -> HTTPResponse {
        var head = self
        switch body {
        case let .bytes(bytes): head.headers.append(("Content-Length", String(bytes.count)))
        case let .stream(stream, byteCount):
            stream.finish()
            if let byteCount { head.headers.append(("Content-Length", String(byteCount))) }
        }
        head.body = .bytes([])
        return head
    }

    /// The value of header `name` (any case), nil when absent.
    package func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.last { $0.name.lowercased() == lowered }?.value
    }
}
