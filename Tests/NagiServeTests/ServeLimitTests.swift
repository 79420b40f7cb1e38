import Foundation
import NagiTestSupport
import Testing

/// What a client may take: the request line, headers and body are bounded, idle and unfinished connections do not
/// hold the server, sessions are bounded in length and renders in number (a bounded queue, then 503).
@Suite struct ServeLimitTests {
    @Test("A request line of 40 KiB is 414, headers of 40 KiB or 2000 lines 431 (the front door's answers, past libmicrohttpd's pool), and the server serves on")
    func oversizeRequestLineAndHeaders() throws {
        let server = try InProcessServer(mode: .live)
        let longQuery = "/api/describe?pattern=box&title=" + String(repeating: "a", count: 40 * 1024)
        #expect(try server.get(longQuery).status == 414)
        let longHeader = try server.get("/api/presets", headers: [("X-Padding", String(repeating: "b", count: 40 * 1024))])
        #expect(longHeader.status == 431)
        let manyHeaders = try server.get("/api/presets", headers: (0..<2000).map { ("X-Header-\($0)", "value-\($0)") })
        #expect(manyHeaders.status == 431)
        #expect(try server.get("/api/presets").status == 200)
    }

    @Test("A body past 8 MiB is 413 with one JSON line: declared, at once before it is sent; chunked, once past it; and the server serves on")
    func oversizeBody() throws {
        let server = try InProcessServer(mode: .live)
        let token = try #require(server.token)
        // Declared: the answer comes after the head alone (the body is never sent).
        let declared = try server.connect()
        try declared.send("POST /api/resonance?pattern=resonance-steps HTTP/1.1\r\nHost: \(server.host)\r\nAuthorization: Bearer \(token)\r\nContent-Length: \(9 << 20)\r\n\r\n")
        let early = try declared.readReply()
        #expect(early.status == 413)
        #expect((try early.jsonObject()["error"] as? String)?.contains("8 MiB") == true, "\(early.text)")
        // Chunked: no length to refuse early; the body is dropped once past the limit.
        let body = [UInt8](repeating: UInt8(ascii: "7"), count: 9 << 20)
        let chunked = try server.connect()
        try chunked.send("POST /api/resonance?pattern=resonance-steps HTTP/1.1\r\nHost: \(server.host)\r\nAuthorization: Bearer \(token)\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        for start in stride(from: 0, to: body.count, by: 1 << 20) {
            try chunked.send(String(1 << 20, radix: 16) + "\r\n")
            try chunked.send(Array(body[start..<(start + (1 << 20))]) + Array("\r\n".utf8))
        }
        try chunked.send("0\r\n\r\n")
        let reply = try chunked.readReply()
        #expect(reply.status == 413)
        let message = try #require(try reply.jsonObject()["error"] as? String)
        #expect(message.contains("8 MiB"), "\(message)")
        #expect(try server.get("/api/presets").status == 200)
    }

    @Test("A connection that sends nothing, or half a request, is closed once the head's time (5 s) is up, not before")
    func idleConnectionsAreClosed() throws {
        let server = try InProcessServer(mode: .live)
        let start = Date()
        let silent = try server.connect()
        let halfSent = try server.connect()
        try halfSent.send("GET /api/presets HTTP/1.1\r\nHost: \(server.host)\r\n")
        #expect(silent.closesWithin(seconds: 30))
        #expect(halfSent.closesWithin(seconds: 5))
        let seconds = Date().timeIntervalSince(start)
        #expect(seconds > 4.5 && seconds < 30, "closed after \(seconds) s")
    }

    @Test("Sixty unfinished requests do not keep a real one waiting")
    func unfinishedRequestsDoNotBlock() throws {
        let server = try InProcessServer(mode: .live)
        let stalled = try (0..<60).map { index in
            let connection = try server.connect()
            try connection.send(index % 2 == 0 ? "GET /api/presets HTTP/1.1\r\nHost: \(server.host)\r\nX-Slow: " : "GE")
            return connection
        }
        let start = Date()
        let reply = try server.get("/api/presets")
        #expect(reply.status == 200)
        #expect(Date().timeIntervalSince(start) < 3)
        withExtendedLifetime(stalled) {}
    }

    @Test("A session longer than --max-minutes is 422 naming minutes")
    func sessionLengthIsBounded() throws {
        let server = try InProcessServer(["--max-minutes", "2"])
        let reply = try server.get("/api/render.wav?pattern=box&minutes=5")
        #expect(reply.status == 422)
        let object = try reply.jsonObject()
        #expect(object["parameter"] as? String == "minutes")
        #expect((object["error"] as? String)?.contains("--max-minutes") == true, "\(object)")
        #expect(try server.request("HEAD", "/api/render.wav?pattern=box&minutes=1").status == 200)
    }

    @Test("With --jobs 1, one render running and four waiting, the next request is 503; the waiting ones are served after")
    func fullQueueIsBusy() throws {
        let server = try InProcessServer(["--jobs", "1"], mode: .live)
        let authorization = ("Authorization", "Bearer \(try #require(server.token))")
        // The render that holds the one slot: an hour, never read (it renders into its spool meanwhile).
        let hog = try server.connect()
        try hog.sendRequest("GET", "/api/render.wav?pattern=box&minutes=60&cues=none", headers: [("Host", server.host), authorization])
        let head = try hog.readHead()
        try #require(head.status == 200)
        let small = "/api/render.wav?pattern=box&cycles=1&cues=none"
        let waiting = try (0..<4).map { _ in
            let connection = try server.connect()
            try connection.sendRequest("GET", small, headers: [("Host", server.host), authorization, ("Connection", "close")])
            return connection
        }
        // The queue takes them as their connections' threads reach it.
        Thread.sleep(forTimeInterval: 1)
        let busy = try server.get(small)
        #expect(busy.status == 503)
        #expect((try busy.jsonObject()["error"] as? String)?.contains("busy") == true)
        hog.reset()
        for connection in waiting {
            let reply = try connection.readReply()
            #expect(reply.status == 200)
            #expect(reply.body.count > 44)
        }
    }
}
