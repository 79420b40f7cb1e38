import Foundation
import NagiTestSupport
import Testing

/// Who may ask: on loopback the Host header must name this machine; every request carries the token (on loopback
/// too, unless `--no-token`).
@Suite struct ServeGuardTests {
    @Test("On loopback a Host naming another site is 403 (DNS rebinding); this machine's names are served")
    func foreignHostIsRefused() throws {
        let server = try InProcessServer()
        for host in ["evil.example", "evil.example:\(server.port)", "127.0.0.1.evil.example:\(server.port)", "localhost.evil.example",
                     "127.0.0.256:\(server.port)", "[::2]:\(server.port)", "192.168.1.10:\(server.port)", ""] {
            let reply = try server.get("/api/presets", headers: [("Host", host)])
            #expect(reply.status == 403, "Host: \(host)")
            #expect(try reply.jsonObject()["error"] is String, "Host: \(host)")
            #expect(!reply.text.contains("\"patterns\""), "Host: \(host)")
        }
        for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "LOCALHOST", "127.1.2.3:\(server.port)", "[::1]:\(server.port)"] {
            #expect(try server.get("/api/presets", headers: [("Host", host)]).status == 200, "Host: \(host)")
        }
    }

    @Test("No CORS headers: another origin's script cannot read an answer")
    func noCORSHeaders() throws {
        let server = try InProcessServer()
        let reply = try server.get("/api/presets", headers: [("Origin", "https://evil.example")])
        #expect(reply.status == 200)
        #expect(!reply.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
        #expect(reply.header("x-content-type-options") == "nosniff")
        #expect(reply.header("referrer-policy") == "no-referrer")
    }

    @Test("Beyond loopback with --token: no token or a wrong one is 401; the query, a Bearer header or the cookie named with the port are let in")
    func tokenIsRequiredBeyondLoopback() throws {
        let token = "s3cret-Token_of.the~class"
        let server = try InProcessServer(["--listen", "0.0.0.0:8788", "--token", token])
        #expect(server.url == "http://0.0.0.0:8788/?token=\(token)")
        let wrongSameLength = String(token.dropLast()) + "X"
        let refused: [(target: String, headers: [(String, String)])] = [
            ("/api/presets", []),
            ("/api/presets?token=", []),
            ("/api/presets?token=\(wrongSameLength)", []),
            ("/api/presets?token=\(token)x", []),
            ("/api/presets", [("Authorization", "Bearer \(wrongSameLength)")]),
            ("/api/presets", [("Authorization", "Basic \(token)")]),
            ("/api/presets", [("Cookie", "nagi_token_8788=\(wrongSameLength)")]),
            // Another port's cookie (another server on this host) is not this server's.
            ("/api/presets", [("Cookie", "nagi_token_8787=\(token)")]),
            ("/api/presets", [("Cookie", "nagi_token=\(token)")]),
            ("/api/presets", [("Cookie", "other=\(token)")]),
            ("/api/render.wav?pattern=box&cycles=1", []),
            ("/", []),
        ]
        // Each from an address of its own: ten wrong tokens from one address make it wait (ServeAbuseTests).
        for (index, (target, headers)) in refused.enumerated() {
            let reply = try server.get(target, headers: headers, authorized: false, clientAddress: "192.0.2.\(index + 1)")
            #expect(reply.status == 401, "\(target) \(headers)")
            #expect(try reply.jsonObject()["error"] is String)
            #expect(reply.header("set-cookie") == nil)
        }
        let first = try server.get("/api/presets?token=\(token)")
        #expect(first.status == 200)
        #expect(first.header("set-cookie")?.hasPrefix("nagi_token_8788=\(token);") == true)
        #expect(first.header("set-cookie")?.contains("HttpOnly") == true)
        #expect(try server.get("/api/presets", headers: [("Authorization", "Bearer \(token)")]).status == 200)
        #expect(try server.get("/api/presets", headers: [("Cookie", "theme=dark; nagi_token_8788=\(token)")]).status == 200)
        // Beyond loopback the Host is not this machine's name: any is served with the token.
        #expect(try server.get("/api/presets?token=\(token)", headers: [("Host", "192.168.1.10:\(server.port)")]).status == 200)
    }

    @Test("On loopback with --token the token is required too, and the Host is still checked")
    func tokenOnLoopbackWhenGiven() throws {
        let token = "abcdefgh12345678"
        let server = try InProcessServer(["--token", token])
        #expect(server.url == "http://127.0.0.1:8787/?token=\(token)")
        #expect(try server.get("/api/presets", authorized: false).status == 401)
        #expect(try server.get("/api/presets?token=\(token)").status == 200)
        #expect(try server.get("/api/presets?token=\(token)", headers: [("Host", "evil.example")]).status == 403)
    }

    @Test("With --no-token on loopback every request from this machine is served, and no cookie is set")
    func loopbackWithoutToken() throws {
        let server = try InProcessServer(["--no-token"])
        #expect(server.url == "http://127.0.0.1:8787/")
        let reply = try server.get("/", authorized: false)
        #expect(reply.status == 200)
        #expect(reply.header("content-type")?.hasPrefix("text/html") == true)
        #expect(reply.header("set-cookie") == nil)
    }
}
