import Foundation
import Glibc
import Locking
@testable import NagiServe
import NagiTestSupport
import Testing

/// What someone who can reach the server cannot do (docs/serve.md, "Threat model"): guess the token at the network's
/// pace, smuggle a second Host or length or a NUL past the checks, make it compute without bounds, make it read a
/// body before the token is checked, hold connections by trickling, or read a body from a HEAD.
@Suite struct ServeAbuseTests {
    @Test("Ten wrong tokens from one address make that address wait (429, Retry-After), the right token included; other addresses are heard")
    func wrongTokensAreThrottled() throws {
        let server = try InProcessServer()
        let token = try #require(server.token)
        let wrong = String(repeating: "x", count: token.count)
        for attempt in 1...10 {
            let reply = try server.get("/api/presets?token=\(wrong)", authorized: false, clientAddress: "192.0.2.7")
            #expect(reply.status == 401, "attempt \(attempt)")
        }
        let waiting = try server.get("/api/presets?token=\(token)", clientAddress: "192.0.2.7")
        #expect(waiting.status == 429)
        let seconds = try #require(waiting.header("retry-after").flatMap { Int($0) })
        #expect((1...60).contains(seconds), "Retry-After: \(seconds)")
        #expect(waiting.header("x-content-type-options") == "nosniff")
        #expect((try waiting.jsonObject()["error"] as? String)?.contains("too many wrong tokens") == true)
        #expect(try server.get("/api/presets?token=\(token)", clientAddress: "192.0.2.8").status == 200)
        // No token at all is no guess: not counted.
        for _ in 1...20 { #expect(try server.get("/api/presets", authorized: false, clientAddress: "192.0.2.9").status == 401) }
        #expect(try server.get("/api/presets", clientAddress: "192.0.2.9").status == 200)
    }

    @Test("A NUL anywhere in the request (the path, a parameter after the token, a header) is 400, in process and over the socket")
    func nulIsRefused() throws {
        let server = try InProcessServer()
        let token = try #require(server.token)
        for (target, headers) in [
            ("/api/presets?token=\(token)%00tail", [(String, String)]()), ("/api/describe?pattern=4-7-8%00x", []), ("/api%00/presets", []),
            ("/api/presets", [("X-Note", "a\u{0}b")]),
        ] {
            let reply = try server.get(target, headers: headers)
            #expect(reply.status == 400, "\(target) \(headers)")
            #expect((try reply.jsonObject()["error"] as? String)?.contains("NUL") == true, "\(target)")
        }
        let live = try InProcessServer(mode: .live)
        let liveToken = try #require(live.token)
        #expect(try live.get("/api/presets?token=\(liveToken)%00tail", authorized: false).status == 400)
        #expect(try live.get("/api/describe?pattern=box%00").status == 400)
        #expect(try live.get("/api/presets").status == 200)
    }

    @Test("Two Host headers or two Content-Length headers are 400, whatever their values")
    func repeatedFramingHeadersAreRefused() throws {
        let server = try InProcessServer()
        let twoHosts = try server.get("/api/presets", headers: [("Host", server.host), ("Host", "evil.example")])
        #expect(twoHosts.status == 400)
        #expect((try twoHosts.jsonObject()["error"] as? String)?.contains("Host") == true)
        let twoLengths = try server.request("POST", "/api/resonance?pattern=box", headers: [("Content-Length", "3"), ("Content-Length", "3")], body: Array("1\n2".utf8))
        #expect(twoLengths.status == 400)
        let live = try InProcessServer(mode: .live)
        let token = try #require(live.token)
        for extra in ["Host: evil.example\r\n", "Host: \(live.host)\r\n"] {
            let connection = try live.connect()
            try connection.send("GET /api/presets HTTP/1.1\r\nHost: \(live.host)\r\n\(extra)Authorization: Bearer \(token)\r\nConnection: close\r\n\r\n")
            #expect(try connection.readReply().status == 400, "\(extra)")
        }
        let connection = try live.connect()
        try connection.send("POST /api/resonance?pattern=box HTTP/1.1\r\nHost: \(live.host)\r\nAuthorization: Bearer \(token)\r\nContent-Length: 3\r\nContent-Length: 3\r\nConnection: close\r\n\r\n1\n2")
        #expect(try connection.readReply().status == 400)
    }

    @Test("Every request that computes a session has render's bounds: one sentence, 422, before the work (a 250 000-cycle describe, 181 minutes)")
    func everyComputingRequestIsBounded() throws {
        let server = try InProcessServer()
        for query in ["pattern=0.1-0.1&cycles=250000", "pattern=4-7-8&minutes=181"] {
            var sentences: Set<String> = []
            for path in ["/api/describe", "/api/plot.svg", "/api/render.wav", "/api/render.flac"] {
                let reply = try server.get("\(path)?\(query)")
                #expect(reply.status == 422, "\(path)?\(query)")
                #expect(reply.body.count < 1024, "\(path)?\(query): \(reply.body.count) bytes")
                if let sentence = try reply.jsonObject()["error"] as? String { sentences.insert(sentence) }
            }
            let record = Array((0..<400).map { _ in "1000" }.joined(separator: "\n").utf8)
            let resonance = try server.request("POST", "/api/resonance?\(query)", body: record)
            #expect(resonance.status == 422, "resonance \(query): \(resonance.text)")
            if let sentence = try resonance.jsonObject()["error"] as? String { sentences.insert(sentence) }
            #expect(sentences.count == 1, "\(sentences)")
        }
        #expect(try server.get("/api/describe?pattern=4-7-8&minutes=180").status == 200)
    }

    @Test("A body is never read before the Host and token are checked: the refusal comes after the head alone")
    func bodyIsNotReadBeforeTheToken() throws {
        let server = try InProcessServer(mode: .live)
        for (headers, status) in [("Host: \(server.host)\r\n", 401), ("Host: evil.example\r\n", 403)] {
            let connection = try server.connect()
            // Ten megabytes declared, none sent: an answer proves none was waited for.
            try connection.send("POST /api/resonance?pattern=resonance-steps HTTP/1.1\r\n\(headers)Content-Length: \(10 << 20)\r\n\r\n")
            let reply = try connection.readReply()
            #expect(reply.status == status, "\(headers)")
            #expect(connection.closesWithin(seconds: 10))
        }
    }

    @Test("128 connections that trickle their request a byte at a time do not keep a real request waiting, and are closed once their head's time is up")
    func tricklingClientsAreClosed() throws {
        let server = try InProcessServer(mode: .live)
        let trickling = try (0..<128).map { _ in try server.connect(receiveTimeoutSeconds: 5) }
        let request = Array("GET /api/presets HTTP/1.1\r\nHost: \(server.host)\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 200)
        for connection in trickling { try connection.send([request[0]]) }
        let start = Date()
        let reply = try server.get("/api/presets")
        let seconds = Date().timeIntervalSince(start)
        #expect(reply.status == 200)
        #expect(seconds < 3, "a real request took \(seconds) s beside 128 trickling connections")
        // Trickle on, a byte every half second each, until the server has closed them all.
        var open = Array(trickling.indices)
        var sent = 1
        let trickleStart = Date()
        while !open.isEmpty, Date().timeIntervalSince(trickleStart) < 30, sent < request.count {
            Thread.sleep(forTimeInterval: 0.5)
            open = open.filter { index in
                guard !trickling[index].isClosedByPeer else { return false }
                return (try? trickling[index].send([request[sent]])) != nil
            }
            sent += 1
        }
        let closedAfter = Date().timeIntervalSince(trickleStart)
        #expect(open.isEmpty, "\(open.count) trickling connections still open after \(closedAfter) s")
        #expect(closedAfter < 30)
        #expect(server.server.lateConnectionCount >= 128)
        #expect(try server.get("/api/presets").status == 200)
    }

    @Test("HEAD answers the headers GET would, the length included, and never a body: a page, a stream of unknown length, a WAV")
    func headSendsNoBody() throws {
        let server = try InProcessServer(mode: .live)
        let token = try #require(server.token)
        for target in ["/api/presets", "/api/render.flac?pattern=box&cycles=1", "/api/render.wav?pattern=box&cycles=1"] {
            let connection = try server.connect()
            try connection.send("HEAD \(target) HTTP/1.1\r\nHost: \(server.host)\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n")
            let head = try connection.readHead()
            #expect(head.status == 200, "\(target)")
            #expect(try connection.readToEnd().isEmpty, "HEAD \(target) sent a body")
            if target.hasPrefix("/api/render.wav") {
                let length = head.headers.last { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) }
                let whole = try server.get(target)
                #expect(length == whole.body.count, "HEAD's length \(String(describing: length)) against GET's \(whole.body.count)")
            }
        }
    }

    @Test("A range outside the WAV is 416 with valid JSON that quotes the range as sent, quotes and all")
    func unsatisfiableRangeIsValidJSON() throws {
        let server = try InProcessServer()
        let range = "bytes=99999999999-\"}, \"x\": \"y"
        let reply = try server.get("/api/render.wav?pattern=box&cycles=1", headers: [("Range", range)])
        #expect(reply.status == 416)
        let object = try reply.jsonObject()
        #expect((object["error"] as? String)?.contains(range) == true, "\(reply.text)")
        #expect(object["x"] == nil)
    }

    @Test("No answer names a file system path: the presets with a user's broken and unreadable presets, a describe of a broken one")
    func noPathInAnyAnswer() throws {
        let server = try InProcessServer()
        let patterns = server.home.file("config/nagi/patterns")
        try FileManager.default.createDirectory(atPath: patterns, withIntermediateDirectories: true)
        try "{ not json".write(toFile: patterns + "/broken.json", atomically: true, encoding: .utf8)
        try "{\"inhale\": 4, \"exhale\": 6}".write(toFile: patterns + "/mine.json", atomically: true, encoding: .utf8)
        for target in ["/api/presets", "/api/describe?pattern=broken", "/api/describe?pattern=mine", "/api/plot.svg?pattern=broken", "/api/render.wav?pattern=broken"] {
            let reply = try server.get(target)
            #expect(!reply.text.contains(server.home.path), "\(target) names a path: \(reply.text.prefix(300))")
            #expect(!reply.text.contains("/patterns/"), "\(target): \(reply.text.prefix(300))")
        }
    }

    @Test("Render turns are given in the order they were asked for, and a stop turns the waiting away")
    func renderTurnsAreFair() throws {
        let slots = RenderSlots(capacity: 1, queueCapacity: 8)
        #expect(slots.acquire())
        let order = Locked<[Int]>([])
        let done = DispatchGroup()
        for index in 0..<5 {
            done.enter()
            Thread.detachNewThread {
                if slots.acquire() {
                    order.withLock { $0.append(index) }
                    slots.release()
                }
                done.leave()
            }
            // The next asks only once this one waits.
            #expect(Poll.until(seconds: 30, every: 0.005) { slots.counts.waiting == index + 1 })
        }
        slots.release()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
        #expect(slots.counts.running == 0)
        // Full: one running, eight waiting, the next turned away at once; a stop turns the waiting away.
        #expect(slots.acquire())
        let turnedAway = Locked(0)
        for _ in 0..<8 {
            done.enter()
            Thread.detachNewThread {
                if !slots.acquire() { turnedAway.withLock { $0 += 1 } }
                done.leave()
            }
        }
        #expect(Poll.until(seconds: 30, every: 0.005) { slots.counts.waiting == 8 })
        #expect(!slots.acquire())
        slots.stop()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(turnedAway.withLock { $0 } == 8)
    }
}
