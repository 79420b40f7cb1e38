import Foundation
import Glibc
@testable import NagiServe
import NagiTestSupport
import Testing

/// The front door: every answer carries the security headers, those to requests libmicrohttpd could not parse
/// included, because nagi reads each connection's first head before the library does (docs/serve.md, "The HTTP
/// layer"). Each refusal is read raw off a real socket: its status, every security header, `Connection: close`, a
/// one-line JSON error, and the connection closed after it.
@Suite struct ServeFrontDoorTests {
    /// The headers every answer carries, as the server adds them.
    static let securityHeaders = NagiServer.secured(HTTPResponse(status: 200)).headers

    /// Sends `bytes` on a new connection to `server` and checks the refusal that comes back: `status`, every
    /// security header, `Connection: close`, an `error` line holding `words`, then the connection closed.
    static func expectRefusal(_ bytes: [UInt8], from server: InProcessServer, status: Int, words: String, _ label: String) throws {
        let connection = try server.connect(receiveTimeoutSeconds: 20)
        try? connection.send(bytes)
        let reply = try connection.readReply()
        #expect(reply.status == status, "\(label): \(reply.status) \(reply.text)")
        for (name, value) in securityHeaders {
            #expect(reply.header(name) == value, "\(label): \(name) is \(String(describing: reply.header(name)))")
        }
        #expect(reply.header("connection")?.lowercased() == "close", "\(label)")
        let message = try reply.jsonObject()["error"] as? String
        #expect(message?.contains(words) == true, "\(label): \(reply.text)")
        #expect(!(message ?? "\n").contains("\n"), "\(label)")
        #expect(connection.closesWithin(seconds: 10), "\(label): the connection stayed open")
    }

    @Test("A request line past 8 KiB is 414 and a head past 16 KiB or 100 header lines is 431, from nagi with its headers; the server serves on")
    func oversizeHeadsAreNagisAnswers() throws {
        let server = try InProcessServer(mode: .live)
        let head = { (line: String, headers: String) in Array("\(line)\r\nHost: \(server.host)\r\n\(headers)\r\n".utf8) }
        try Self.expectRefusal(
            head("GET /api/describe?pattern=box&title=\(String(repeating: "a", count: 9 * 1024)) HTTP/1.1", ""), from: server,
            status: 414, words: "request line", "long request line")
        try Self.expectRefusal(
            head("GET /api/presets HTTP/1.1", "X-Padding: \(String(repeating: "b", count: 17 * 1024))\r\n"), from: server,
            status: 431, words: "headers", "long header")
        try Self.expectRefusal(
            head("GET /api/presets HTTP/1.1", (0..<101).map { "X-H\($0): v\r\n" }.joined()), from: server,
            status: 431, words: "header lines", "101 header lines")
        // Past libmicrohttpd's own pool too: still nagi's answer.
        try Self.expectRefusal(
            head("GET /api/presets HTTP/1.1", "X-Padding: \(String(repeating: "c", count: 80 * 1024))\r\n"), from: server,
            status: 431, words: "headers", "80 KiB header")
        #expect(try server.get("/api/presets").status == 200)
    }

    @Test("Every malformed head is 400 from nagi with its headers: the request line, a header line, a NUL, a bare CR, HTTP/1.1 without Host")
    func malformedHeadsAreNagisAnswers() throws {
        let server = try InProcessServer(mode: .live)
        let host = "Host: \(server.host)\r\n"
        for (text, words) in [
            ("GET /api/presets\r\n\(host)\r\n", "request line"),
            ("GET  /api/presets HTTP/1.1\r\n\(host)\r\n", "request line"),
            ("GET /api/presets HTTP/2.0\r\n\(host)\r\n", "request line"),
            ("G(T /api/presets HTTP/1.1\r\n\(host)\r\n", "request line"),
            ("GET /api/presets HTTP/1.1\r\n\(host)X-No-Colon\r\n\r\n", "NAME: VALUE"),
            ("GET /api/presets HTTP/1.1\r\n\(host)X-Space : before\r\n\r\n", "NAME: VALUE"),
            ("GET /api/presets HTTP/1.1\r\n\(host) folded continuation\r\n\r\n", "NAME: VALUE"),
            ("GET /api/presets HTTP/1.1\r\n\(host)X-Note: a\u{0}b\r\n\r\n", "NUL"),
            ("GET /api/pre\u{0}sets HTTP/1.1\r\n\(host)\r\n", "NUL"),
            ("GET /api/presets HTTP/1.1\r\n\(host)X-Note: a\rb\r\n\r\n", "carriage return"),
            ("GET /api/presets HTTP/1.1\r\nAccept: */*\r\n\r\n", "Host"),
        ] {
            try Self.expectRefusal(Array(text.utf8), from: server, status: 400, words: words, text.debugDescription)
        }
        // HTTP/1.0 needs no Host: it passes the door (and meets the Host check behind it, as before).
        let connection = try server.connect()
        try connection.send("GET /api/presets HTTP/1.0\r\n\r\n")
        let reply = try connection.readReply()
        #expect(reply.status == 403, "\(reply.status) \(reply.text)")
        #expect(reply.header("x-frame-options") == "DENY")
    }

    @Test("A normal request and a slow but complete one pass the door byte-exact; on plain HTTP each answer closes its connection, so a second head meets the door too")
    func wellFormedRequestsPassThrough() throws {
        let server = try InProcessServer(mode: .live)
        let token = try #require(server.token)
        let target = "/api/describe?pattern=box&cycles=3"
        let expected = InProcessServer.bytes(of: server.server.respond(to: InProcessServer.request(
            "GET", target, headers: [("Host", server.host), ("Authorization", "Bearer \(token)")], body: [], clientAddress: "127.0.0.1")).body)
        #expect(!expected.isEmpty)
        let connection = try server.connect()
        // The head in pieces, a pause between them (well inside its 5 s): the door waits for the blank line.
        let head = Array("GET \(target) HTTP/1.1\r\nHost: \(server.host)\r\nAuthorization: Bearer \(token)\r\n\r\n".utf8)
        for piece in [head[0..<10], head[10..<40], head[40...]] {
            try connection.send(Array(piece))
            Thread.sleep(forTimeInterval: 0.4)
        }
        let slow = try connection.readReply()
        #expect(slow.status == 200)
        #expect(slow.body == expected)
        #expect(slow.header("x-content-type-options") == "nosniff")
        // The answer closes the connection: a later head on it would reach libmicrohttpd alone, whose own 400 has
        // none of nagi's headers. A malformed head sent right behind a good one gets no answer of the library's.
        #expect(slow.header("connection")?.lowercased() == "close", "\(slow.text)")
        #expect(connection.closesWithin(seconds: 10), "the connection stayed open after its answer")
        let pipelined = try server.connect()
        try pipelined.send(String(decoding: head, as: UTF8.self) + "GET /api/presets HTTP/1.1\r\nHost: \(server.host)\r\nX-No-Colon\r\n\r\n")
        let first = try pipelined.readReply()
        #expect(first.status == 200)
        #expect(first.body == expected)
        let rest = (try? pipelined.readToEnd()) ?? [] // a reset is no answer either
        #expect(rest.isEmpty, "libmicrohttpd answered the second head: \(String(decoding: rest.prefix(200), as: UTF8.self))")
        // A POST whose body follows its head in the same packet: the body stays for libmicrohttpd, and is read whole
        // (a record of 80 beats, which the analysis reads through to its verdict).
        let record = Array((0..<80).map { _ in "1000" }.joined(separator: "\n").utf8)
        let posted = try server.request("POST", "/api/resonance?pattern=box&cycles=2", body: record)
        let inProcess = server.server.respond(to: InProcessServer.request(
            "POST", "/api/resonance?pattern=box&cycles=2",
            headers: [("Host", server.host), ("Authorization", "Bearer \(token)"), ("Content-Length", String(record.count))], body: record,
            clientAddress: "127.0.0.1"))
        #expect(posted.status == inProcess.status, "\(posted.text)")
        #expect(posted.body == InProcessServer.bytes(of: inProcess.body))
        #expect(posted.text.contains("correlation"), "\(posted.text)")
    }

    @Test("Plain HTTP on the HTTPS port is 400 with the https:// URL and the security headers; TLS still serves")
    func plainHTTPOnTheHTTPSPort() throws {
        let folder = try TemporaryFolder()
        try ServeTLSTests.makeCertificate(in: folder)
        let identity = TLSIdentity(
            certificatePEM: try String(contentsOfFile: folder.file("cert.pem"), encoding: .utf8),
            keyPEM: try String(contentsOfFile: folder.file("key.pem"), encoding: .utf8))
        let server = try InProcessServer(mode: .live, tls: identity)
        try Self.expectRefusal(
            Array("GET /api/presets HTTP/1.1\r\nHost: \(server.host)\r\n\r\n".utf8), from: server,
            status: 400, words: "this port speaks HTTPS: open https://127.0.0.1:\(server.port)/", "plain HTTP")
        // Not even a request: still told, then closed.
        try Self.expectRefusal(Array("hello\r\n\r\n".utf8), from: server, status: 400, words: "https://", "not HTTP")
        let reply = try CurlRequest("https://127.0.0.1:\(server.port)/api/presets?token=\(try #require(server.token))", ["--cacert", folder.file("cert.pem")], in: folder)
        #expect(reply.status == 200, "\(reply.message)")
    }

    @Test("The per-address cap holds at the door: connections waiting there and those handed over both count, one past it is 503 with Retry-After, and each frees its place when it closes")
    func perAddressCapCountsEveryConnection() throws {
        let home = try ServeProcess.makeHome()
        var limits = HTTPServer.Limits()
        limits.connectionsPerAddress = 4
        let server = try NagiServer(configuration: NagiServer.Configuration(
            address: try ListenAddress(parsing: "127.0.0.1:0"), token: nil, jobCount: 1, limits: limits, environment: ServeProcess.environment(home)))
        defer { server.stop() }
        let client = LoopbackClient(port: try #require(ServeProcess.port(in: server.url)), token: nil)
        let request = "GET /api/presets HTTP/1.1\r\nHost: \(client.host)\r\n\r\n"
        // Two handed over (a whole head, its body still to come: libmicrohttpd waits for it), two at the door (half a
        // request line). An answered connection is no longer held: on plain HTTP each answer closes its connection.
        var held: [LoopbackConnection] = []
        for index in 0..<4 {
            let connection = try client.connect()
            if index < 2 {
                try connection.send("POST /api/resonance?pattern=box HTTP/1.1\r\nHost: \(client.host)\r\nContent-Length: 1000\r\n\r\n")
            } else {
                try connection.send("GET /api")
            }
            held.append(connection)
        }
        // A fifth is answered 503 at once, with Retry-After and the security headers, and closed (admitted, its
        // request would be answered 200); it takes no place: the four still hold every one.
        let fifth = try client.connect()
        try? fifth.send(request)
        let busy = try fifth.readReply()
        #expect(busy.status == 503, "a fifth connection from the address was served: \(busy.status) \(busy.text)")
        #expect(busy.header("retry-after") == "1")
        for (name, value) in Self.securityHeaders {
            #expect(busy.header(name) == value, "\(name) is \(String(describing: busy.header(name)))")
        }
        #expect((try busy.jsonObject()["error"] as? String)?.contains("too many connections at once") == true, "\(busy.text)")
        #expect(fifth.closesWithin(seconds: 10), "the fifth connection stayed open")
        let sixth = try client.connect()
        try? sixth.send(request)
        #expect((try? sixth.readReply())?.status == 503, "a place was freed by a refused connection")
        // One handed over closes: libmicrohttpd's close frees its place.
        held[0].close()
        #expect(Poll.until(seconds: 10, every: 0.05) { (try? client.get("/api/presets").status) == 200 })
        // One more handed over and one at the door close: with both places freed, three at once are served.
        held[1].close()
        held[2].close()
        #expect(Poll.until(seconds: 10, every: 0.05) {
            guard let three = try? (0..<3).map({ _ in try client.connect(receiveTimeoutSeconds: 5) }) else { return false }
            for connection in three { try? connection.send(request) }
            return three.allSatisfy { (try? $0.readReply().status) == 200 }
        })
    }

    @Test("Half a head and then the client's end: closed at once by the door, not left to its deadline (nor polled in a loop)")
    func halfHeadThenEndIsClosed() throws {
        let server = try InProcessServer(mode: .live)
        let connection = try server.connect()
        try connection.send("GET /api/presets HTTP/1.1\r\nHo")
        // Let the door see the half head first, then end the sending side.
        Thread.sleep(forTimeInterval: 0.3)
        connection.shutDownSending()
        #expect(connection.closesWithin(seconds: 4), "still open past the moment the head could no longer come")
        // Closed for its end, not as late: the head's 5 s had not run out.
        #expect(server.server.lateConnectionCount == 0)
        #expect(try server.get("/api/presets").status == 200)
    }

    @Test("The head check: whole, waiting, or refused, byte by byte")
    func headCheckVerdicts() {
        let check = RequestHeadCheck(requestLineByteCount: 64, headByteCount: 128, headerLineCount: 3)
        let verdict = { (text: String) in Array(text.utf8).withUnsafeBytes { check.verdict($0) } }
        #expect(verdict("GET / HTTP/1.1\r\nHost: a\r\n\r\n") == .complete)
        #expect(verdict("GET / HTTP/1.1\nHost: a\n\nbody\u{0}") == .complete)
        #expect(verdict("\r\nGET / HTTP/1.0\r\n\r\n") == .complete)
        #expect(verdict("GET / HTTP/1.1\r\nHost: a\r\n") == .incomplete)
        #expect(verdict("GET / HT") == .incomplete)
        #expect(verdict("GET / HTTP/1.1\r") == .incomplete)
        #expect(verdict("") == .incomplete)
        let status = { (text: String) -> Int? in
            if case let .refuse(status, _) = verdict(text) { return status }
            return nil
        }
        #expect(status("GET /\(String(repeating: "a", count: 64)) HTTP/1.1") == 414)
        #expect(status("GET / HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "b", count: 120))") == 431)
        #expect(status("GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n") == 431)
        #expect(status("GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\n\r\n") == nil)
        #expect(status("GET / HTTP/1.1 extra\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nHost: a\r\nBad Name: 1\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\n: empty name\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nHost: a\rb") == 400)
        #expect(status("GET / HTTP/1.1\r\n\r\n") == 400)
        let hostName = { (text: String) in Array(text.utf8).withUnsafeBytes { RequestHeadCheck.hostName(in: $0) } }
        #expect(hostName("GET / HTTP/1.1\r\nAccept: x\r\nhOST: phone.local:8787\r\n\r\n") == "phone.local")
        #expect(hostName("GET / HTTP/1.1\r\nHost: [::1]:8787\r\n\r\n") == "[::1]")
        #expect(hostName("GET / HTTP/1.1\r\nHost: <script>\r\n\r\n") == nil)
    }
}
