import Foundation
import NagiTestSupport
import Testing

/// Who may ask: on loopback the Host header must name this machine; beyond it (or with `--token`) every request
/// carries the token.
@Suite struct ServeGuardTests {
    @Test("On loopback a Host naming another site is 403 (DNS rebinding); this machine's names are served")
    func foreignHostIsRefused() throws {
        let server = try ServeProcess()
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
        let server = try ServeProcess()
        let reply = try server.get("/api/presets", headers: [("Origin", "https://evil.example")])
        #expect(reply.status == 200)
        #expect(!reply.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
        #expect(reply.header("x-content-type-options") == "nosniff")
        #expect(reply.header("referrer-policy") == "no-referrer")
    }

    @Test("Beyond loopback with --token: no token or a wrong one is 401; the query, a Bearer header or the cookie are let in")
    func tokenIsRequiredBeyondLoopback() throws {
        let token = "s3cret-Token_of.the~class"
        // Plain HTTP (--no-tls) for this test's own client; HTTPS beyond loopback is ServeTLSTests'.
        let server = try ServeProcess(["--listen", "0.0.0.0:0", "--token", token, "--no-tls"])
        // The URL names this machine's address on the network (ServeJoinTests), never 0.0.0.0.
        #expect(server.url.hasPrefix("http://") && !server.url.hasPrefix("http://0.0.0.0") && server.url.hasSuffix(":\(server.port)/?token=\(token)"), "\(server.url)")
        let wrongSameLength = String(token.dropLast()) + "X"
        let refused: [(target: String, headers: [(String, String)])] = [
            ("/api/presets", []),
            ("/api/presets?token=", []),
            ("/api/presets?token=\(wrongSameLength)", []),
            ("/api/presets?token=\(token)x", []),
            ("/api/presets", [("Authorization", "Bearer \(wrongSameLength)")]),
            ("/api/presets", [("Authorization", "Basic \(token)")]),
            ("/api/presets", [("Cookie", "nagi_token=\(wrongSameLength)")]),
            ("/api/presets", [("Cookie", "other=\(token)")]),
            ("/api/render.wav?pattern=box&cycles=1", []),
            ("/", []),
        ]
        for (target, headers) in refused {
            let reply = try server.get(target, headers: headers)
            #expect(reply.status == 401, "\(target) \(headers)")
            #expect(try reply.jsonObject()["error"] is String)
            #expect(reply.header("set-cookie") == nil)
        }
        let first = try server.get("/api/presets?token=\(token)")
        #expect(first.status == 200)
        #expect(first.header("set-cookie")?.hasPrefix("nagi_token=\(token);") == true)
        #expect(first.header("set-cookie")?.contains("HttpOnly") == true)
        #expect(try server.get("/api/presets", headers: [("Authorization", "Bearer \(token)")]).status == 200)
        #expect(try server.get("/api/presets", headers: [("Cookie", "theme=dark; nagi_token=\(token)")]).status == 200)
        // Beyond loopback the Host is not this machine's name: any is served with the token.
        #expect(try server.get("/api/presets?token=\(token)", headers: [("Host", "192.168.1.10:\(server.port)")]).status == 200)
    }

    @Test("Beyond loopback without --token: a token is made, printed in the URL, and required")
    func tokenIsMadeBeyondLoopback() throws {
        let server = try ServeProcess(["--listen", "0.0.0.0:0", "--no-tls"])
        let token = try #require(server.token)
        #expect(token.count == 48 && token.allSatisfy { $0.isHexDigit }, "\(server.url)")
        #expect(try server.get("/api/presets").status == 401)
        #expect(try server.get("/api/presets?token=\(token)").status == 200)
        // A second server makes a token of its own.
        let other = try ServeProcess(["--listen", "0.0.0.0:0", "--no-tls"])
        #expect(other.token != token)
        #expect(try other.get("/api/presets?token=\(token)").status == 401)
    }

    @Test("On loopback with --token the token is required too")
    func tokenOnLoopbackWhenGiven() throws {
        let server = try ServeProcess(["--listen", "127.0.0.1:0", "--token", "abcdefgh12"])
        #expect(server.url == "http://127.0.0.1:\(server.port)/?token=abcdefgh12")
        #expect(try server.get("/api/presets").status == 401)
        #expect(try server.get("/api/presets?token=abcdefgh12").status == 200)
        // The Host is still checked on loopback, token or not.
        #expect(try server.get("/api/presets?token=abcdefgh12", headers: [("Host", "evil.example")]).status == 403)
    }

    @Test("On loopback with no token every request from this machine is served, and no cookie is set")
    func loopbackNeedsNoToken() throws {
        let server = try ServeProcess()
        #expect(server.url == "http://127.0.0.1:\(server.port)/")
        #expect(server.token == nil)
        let reply = try server.get("/")
        #expect(reply.status == 200)
        #expect(reply.header("content-type")?.hasPrefix("text/html") == true)
        #expect(reply.header("set-cookie") == nil)
    }
}
