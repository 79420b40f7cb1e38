import Foundation
import Glibc
import NagiTestSupport
import Testing

/// HTTPS for the phone (a secure context): beyond loopback by default, with a certificate signed by a local
/// authority nagi makes once in the config folder, or with the user's own (`--tls-cert`, `--tls-key`). Every
/// request goes to 127.0.0.1; a printed name or address is reached there through curl's --connect-to or --resolve,
/// so the certificate is still checked for it (and the name sent as SNI).
@Suite("nagi serve: HTTPS") struct ServeTLSTests {
    @Test("Beyond loopback: every printed https URL, and the host name, verify against /ca.crt (public); keys 0600; made once")
    func localAuthorityByDefault() throws {
        let server = try CommandLineServer(["--listen", "0.0.0.0:0"])
        let token = try #require(server.token)
        let urls = server.standardOutput.split(separator: "\n").map(String.init)
        #expect(!urls.isEmpty && urls.allSatisfy { $0.hasPrefix("https://") && $0.hasSuffix(":\(server.port)/?token=\(token)") }, "\(urls)")
        let folder = try TemporaryFolder()

        // /ca.crt needs no token; it is the certificate kept in the config folder.
        let authorityPath = server.home.file("config/nagi/tls/ca.crt")
        let ca = try CurlRequest("https://127.0.0.1:\(server.port)/ca.crt", ["--insecure"], in: folder)
        #expect(ca.status == 200)
        let kept = try String(contentsOfFile: authorityPath, encoding: .utf8)
        #expect(ca.body.hasPrefix("-----BEGIN CERTIFICATE-----") && ca.body == kept)
        try ca.body.write(toFile: folder.file("ca.crt"), atomically: true, encoding: .utf8)

        for url in urls {
            let reply = try CurlRequest(url, ["--cacert", folder.file("ca.crt")] + CurlRequest.toLoopback(url), in: folder)
            #expect(reply.status == 200, "\(url): \(reply.message)")
            #expect(reply.body.contains("<title>nagi studio</title>"), "\(url)")
            // Without the authority the same request is refused by the client: the check is real.
            let untrusted = try CurlRequest(url, CurlRequest.toLoopback(url), in: folder)
            #expect(untrusted.exitStatus == 60 && untrusted.status == nil, "\(url): \(untrusted.exitStatus) \(untrusted.message)")
        }
        // The host name, sent as SNI and in the Host header.
        let name = try #require(try Tool.run("/usr/bin/hostname", []).output.split(separator: "\n").first.map(String.init))
        for host in [name, "\(name).local", "localhost"] {
            let reply = try CurlRequest(
                "https://\(host):\(server.port)/api/presets?token=\(token)",
                ["--cacert", folder.file("ca.crt"), "--resolve", "\(host):\(server.port):127.0.0.1"], in: folder)
            #expect(reply.status == 200, "\(host): \(reply.message)")
        }
        // A name the certificate does not hold is refused by the client.
        let other = try CurlRequest("https://elsewhere.example:\(server.port)/", ["--cacert", folder.file("ca.crt"), "--resolve", "elsewhere.example:\(server.port):127.0.0.1"], in: folder)
        #expect(other.exitStatus == 60, "\(other.message)")
        // Plain HTTP on the TLS port is told where to go (the front door's 400), and served nothing.
        let plain = try CurlRequest("http://127.0.0.1:\(server.port)/api/presets?token=\(token)", in: folder)
        #expect(plain.status == 400 && plain.body.contains("https://127.0.0.1:\(server.port)/"), "\(plain.exitStatus) \(plain.message)")

        var status = stat()
        for (file, mode) in [("ca.key", 0o600), ("server.key", 0o600), ("ca.crt", 0o644), ("server.crt", 0o644), ("", 0o700)] {
            #expect(stat(server.home.file("config/nagi/tls/" + file), &status) == 0)
            #expect(Int(status.st_mode) & 0o777 == mode, "\(file): \(String(Int(status.st_mode) & 0o777, radix: 8))")
        }

        // Started again with the same config folder: the same authority and the same server certificate.
        let before = try ["ca.crt", "ca.key", "server.crt", "server.key"].map { try String(contentsOfFile: server.home.file("config/nagi/tls/" + $0), encoding: .utf8) }
        #expect(server.stop() == 0)
        let again = try CommandLineServer(["--listen", "0.0.0.0:0"], home: server.home)
        #expect(again.stop() == 0)
        let after = try ["ca.crt", "ca.key", "server.crt", "server.key"].map { try String(contentsOfFile: server.home.file("config/nagi/tls/" + $0), encoding: .utf8) }
        #expect(after == before)
    }

    @Test("--tls-cert and --tls-key: the user's certificate is served (on loopback too), and there is no /ca.crt")
    func givenCertificate() throws {
        let folder = try TemporaryFolder()
        try Self.makeCertificate(in: folder)
        let server = try CommandLineServer(["--listen", "127.0.0.1:0", "--tls-cert", folder.file("cert.pem"), "--tls-key", folder.file("key.pem")])
        #expect(server.url == "https://127.0.0.1:\(server.port)/?token=\(try #require(server.token))")
        let reply = try CurlRequest(server.url, ["--cacert", folder.file("cert.pem")], in: folder)
        #expect(reply.status == 200, "\(reply.message)")
        #expect(reply.body.contains("<title>nagi studio</title>"))
        let ca = try CurlRequest("https://127.0.0.1:\(server.port)/ca.crt", ["--cacert", folder.file("cert.pem")], in: folder)
        #expect(ca.status == 404)
        #expect(FileManager.default.fileExists(atPath: server.home.file("config/nagi/tls")) == false)
    }

    @Test("Refusals: half a certificate, --no-tls with one, an unreadable file; --no-tls beyond loopback warns and serves plain HTTP")
    func refusalsAndPlainHTTP() throws {
        let server = try CommandLineServer(["--listen", "0.0.0.0:0", "--no-tls"])
        #expect(server.url.hasPrefix("http://"))
        #expect(server.standardError.contains("nagi serve: warning: plain HTTP beyond loopback"), "\(server.standardError)")
        #expect(try server.get("/api/presets").status == 200)
        let commandLine = try InProcessServer()
        let missing = commandLine.home.file("missing.pem")
        for (arguments, status, words) in [
            (["--tls-cert", missing], Int32(64), "--tls-cert and --tls-key go together"),
            (["--no-tls", "--tls-cert", missing, "--tls-key", missing], 64, "--no-tls"),
            (["--tls-cert", missing, "--tls-key", missing], 66, "--tls-cert \(missing): cannot read it"),
        ] {
            let run = try commandLine.nagi(["serve", "--listen", "127.0.0.1:0"] + arguments)
            #expect(run.status == status, "\(arguments): \(run.standardError)")
            #expect(run.standardError.contains(words) && run.standardError.split(separator: "\n").count == 1, "\(arguments): \(run.standardError)")
        }
    }
}

extension ServeTLSTests {
    /// A self-signed certificate for 127.0.0.1 made by openssl in `folder`: `cert.pem` and `key.pem`.
    static func makeCertificate(in folder: TemporaryFolder) throws {
        let made = try Tool.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", folder.file("key.pem"), "-out", folder.file("cert.pem"),
        ])
        try #require(made.status == 0, "\(made.output)")
    }
}
