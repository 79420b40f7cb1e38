import Foundation
import Glibc
import NagiTestSupport
import Testing

/// How a phone joins `nagi serve`: beyond loopback one URL per address of this machine on the network (never
/// 0.0.0.0), the first drawn as a QR code that zbarimg reads back to a URL that opens the studio, and the same code
/// as SVG at /api/qr.svg. Only loopback is ever connected to: a printed address is reached through 127.0.0.1
/// (curl --connect-to), its certificate still checked for that address.
@Suite("nagi serve: a phone joins by QR code") struct ServeJoinTests {
    @Test("Beyond loopback: one URL per LAN address with the token, none 0.0.0.0; --qr draws the first, which zbarimg reads back and which opens the studio")
    func printedCodeOpensTheStudio() throws {
        let server = try CommandLineServer(["--listen", "0.0.0.0:0", "--qr"])
        let output = server.standardOutput
        let urls = output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("http") }
        let token = try #require(server.token)
        let hosts = try urls.map { url in
            let authority = try #require(url.dropFirst("https://".count).split(separator: "/").first)
            // HTTPS beyond loopback by default (ServeTLSTests).
            #expect(url == "https://\(authority)/?token=\(token)")
            #expect(authority.hasSuffix(":\(server.port)"))
            return String(authority.dropLast(":\(server.port)".count))
        }
        // The machine's own list (hostname -I: every address but loopback and link-local), IPv4 for 0.0.0.0.
        let listed = try Tool.run("/usr/bin/hostname", ["-I"]).output.split(whereSeparator: \.isWhitespace).map(String.init).filter { !$0.contains(":") }
        if listed.isEmpty {
            #expect(hosts.count == 1 && hosts[0] != "0.0.0.0", "\(hosts)")
        } else {
            #expect(Set(hosts) == Set(listed), "printed \(hosts), hostname -I says \(listed)")
        }
        #expect(!hosts.contains("0.0.0.0"))

        let folder = try TemporaryFolder()
        let image = folder.file("terminal.pbm")
        try Self.terminalImage(of: output).write(to: URL(fileURLWithPath: image))
        let decoded = try Self.decodeQR(image, in: folder)
        #expect(decoded == urls.first, "the terminal's code reads \(decoded)")

        // The decoded URL itself, its address reached through 127.0.0.1 and its certificate checked against the
        // server's /ca.crt: the studio, and the token kept in a cookie.
        let ca = try CurlRequest("https://127.0.0.1:\(server.port)/ca.crt", ["--insecure"], in: folder)
        try ca.body.write(toFile: folder.file("ca.crt"), atomically: true, encoding: .utf8)
        let reply = try CurlRequest(decoded, ["--cacert", folder.file("ca.crt")] + CurlRequest.toLoopback(decoded), in: folder)
        #expect(reply.status == 200, "\(reply.message)")
        #expect(reply.body.contains("<title>nagi studio</title>"))
        #expect(reply.headers.lowercased().contains("set-cookie: nagi_token_\(server.port)=\(token);"))
        #expect(server.stop() == 0)
    }

    @Test("No code without --qr when standard output is not a terminal, nor with --no-qr; --qr and --no-qr together are a usage error")
    func codeOnlyWhenAsked() throws {
        for arguments in [["--listen", "0.0.0.0:0"], ["--listen", "0.0.0.0:0", "--no-qr"], ["--listen", "127.0.0.1:0", "--qr"]] {
            let server = try CommandLineServer(arguments)
            let output = server.standardOutput
            #expect(!output.isEmpty && output.split(separator: "\n").allSatisfy { $0.hasPrefix("http") }, "\(arguments): \(output)")
            #expect(!output.contains("█") && !output.contains("\u{1B}"), "\(arguments)")
        }
        let both = try InProcessServer().nagi(["serve", "--listen", "0.0.0.0:0", "--qr", "--no-qr"])
        #expect(both.status == 64)
        #expect(both.standardError.contains("--qr") && both.standardError.contains("--no-qr"), "\(both.standardError)")
    }

    @Test("On a terminal the code is drawn without --qr")
    func codeOnATerminalByDefault() throws {
        let server = try CommandLineServer(["--listen", "0.0.0.0:0"], standardOutputIsTerminal: true)
        let shown = server.standardOutput
        #expect(shown.contains("▄") && shown.contains("\u{1B}[40;97m"), "\(shown)")
        // Read back, the drawn code is the first URL printed.
        let folder = try TemporaryFolder()
        let image = folder.file("terminal.pbm")
        try Self.terminalImage(of: shown).write(to: URL(fileURLWithPath: image))
        #expect(try Self.decodeQR(image, in: folder) == server.url)
    }

    @Test("/api/qr.svg is the first URL's code, read back by zbarimg, and /api/join lists the URLs; on loopback 404 and none")
    func studioCodeIsTheFirstURL() throws {
        // Plain HTTP for this test's own client: the code is the same over HTTPS.
        let server = try CommandLineServer(["--listen", "0.0.0.0:0", "--no-tls"])
        let reply = try server.get("/api/qr.svg?token=\(try #require(server.token))")
        #expect(reply.status == 200)
        #expect(reply.header("content-type") == "image/svg+xml")
        let folder = try TemporaryFolder()
        try Data(reply.body).write(to: URL(fileURLWithPath: folder.file("qr.svg")))
        let converted = try Tool.run("/usr/bin/rsvg-convert", ["-o", folder.file("qr.png"), folder.file("qr.svg")])
        #expect(converted.status == 0, "\(converted.output)")
        #expect(try Self.decodeQR(folder.file("qr.png"), in: folder) == server.url)

        // /api/join: the same URLs for the studio's card, and no authority over plain HTTP.
        let join = try server.get("/api/join?token=\(try #require(server.token))").jsonObject()
        let printed = server.standardOutput.split(separator: "\n").map(String.init)
        #expect(join["urls"] as? [String] == printed)
        #expect(join["authority"] as? Bool == false)

        let loopback = try InProcessServer()
        #expect(try loopback.get("/api/join").jsonObject()["urls"] as? [String] == [])
        let refused = try loopback.get("/api/qr.svg")
        #expect(refused.status == 404)
        #expect(try refused.jsonObject()["error"] as? String == "this server listens on loopback only: no other device can open it (nagi serve --listen 0.0.0.0:PORT)")
    }

    /// The QR code drawn in `output` as a terminal shows it, as a PBM image: each character cell two module rows
    /// (█ both light, ▀ the top, ▄ the bottom, a space neither, the colours' escape sequences dropped), four pixels
    /// to a module.
    static func terminalImage(of output: String) throws -> Data {
        let lines = output.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            .split(separator: "\n").filter { !$0.hasPrefix("http") }
        let width = try #require(lines.first?.count)
        #expect(lines.allSatisfy { $0.count == width })
        var rows: [[Bool]] = []
        for line in lines {
            rows.append(line.map { $0 == "█" || $0 == "▀" })
            rows.append(line.map { $0 == "█" || $0 == "▄" })
        }
        let scale = 4
        var text = "P1\n\(width * scale) \(rows.count * scale)\n"
        for row in rows {
            let pixels = row.flatMap { light in Array(repeating: light ? "0" : "1", count: scale) }.joined(separator: " ")
            for _ in 0..<scale { text += pixels + "\n" }
        }
        return Data(text.utf8)
    }

    /// What zbarimg reads in the image at `path` (its standard output alone: it may complain on standard error
    /// that no D-Bus is running).
    static func decodeQR(_ path: String, in folder: TemporaryFolder) throws -> String {
        let child = try ChildProcess("/usr/bin/zbarimg", ["--quiet", "--raw", path], environment: ["PATH": "/usr/bin:/bin"], standardOutputPath: folder.file("zbar.out"), standardErrorPath: folder.file("zbar.err"))
        #expect(child.wait(seconds: 60) && child.exitStatus == 0, "zbarimg: \((try? String(contentsOfFile: folder.file("zbar.err"), encoding: .utf8)) ?? "")")
        return ((try? String(contentsOfFile: folder.file("zbar.out"), encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
    }
}
