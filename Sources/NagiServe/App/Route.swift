/// One route of the server, as a value: the paths it answers, the methods it takes there, and its answer.
///
/// The server's routes are a table (`NagiServer.routes`) read in order: the first whose path matches answers, or
/// refuses the method with 405 and the methods it takes; a path no route matches is 404.
struct Route: Sendable {
    /// Which paths a route answers.
    enum Path: Sendable {
        /// Exactly these paths.
        case exact(Set<String>)
        /// Every path that begins with this prefix; the rest of the path is its one capture.
        case under(String)
        /// Paths of exactly these segments (after the leading `/`), nil standing for any one segment, captured.
        case segments([String?])

        /// The captures when `path` matches, nil when it does not.
        func match(_ path: String) -> [String]? {
            switch self {
            case let .exact(paths):
                return paths.contains(path) ? [] : nil
            case let .under(prefix):
                return path.hasPrefix(prefix) ? [String(path.dropFirst(prefix.count))] : nil
            case let .segments(template):
                let parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
                guard path.hasPrefix("/"), parts.count == template.count else { return nil }
                var captures: [String] = []
                for (part, expected) in zip(parts, template) {
                    if let expected {
                        guard part == expected else { return nil }
                    } else {
                        captures.append(String(part))
                    }
                }
                return captures
            }
        }
    }

    /// The methods of reading: GET and HEAD (a HEAD is answered as its GET, without the body).
    static let read = ["GET", "HEAD"]

    let path: Path
    let methods: [String]
    /// The answer to a request with this route's captures.
    let answer: @Sendable (NagiServer, HTTPRequest, [String]) -> HTTPResponse

    init(_ path: Path, _ methods: [String] = Route.read, answer: @escaping @Sendable (NagiServer, HTTPRequest, [String]) -> HTTPResponse) {
        self.path = path
        self.methods = methods
        self.answer = answer
    }

    /// The answer of the first route in `routes` whose path is `request`'s: 405 for a method it does not take,
    /// 404 when none matches.
    static func answer(_ request: HTTPRequest, by routes: [Route], server: NagiServer) -> HTTPResponse {
        for route in routes {
            guard let captures = route.path.match(request.path) else { continue }
            guard route.methods.contains(request.method) else {
                return NagiServer.methodNotAllowed(allowing: route.methods.joined(separator: ", "))
            }
            return route.answer(server, request, captures)
        }
        return NagiServer.notFound(request.path)
    }
}
