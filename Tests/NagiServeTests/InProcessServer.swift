import Foundation
import Glibc
import NagiCLI
import NagiServe
import NagiTestSupport

/// A `NagiServer` inside the test process, with its own HOME, XDG folders and TMPDIR in a temporary folder (bound to
/// each request as the server's configuration, not set on the process), in one of two modes, as Hummingbird's
/// testing offers: `.router` hands each request straight to the server (`NagiServer.respond(to:)`, no socket), `.live`
/// serves a real loopback socket from this process. Its API is `ServeProcess`'s, so a test moves between the two by
/// its first line; `ServeProcess` stays for what needs a process of its own (signals, the command line's entry, a
/// server's own CPU time or memory).
final class InProcessServer {
    /// How requests reach the server.
    enum Mode {
        /// Straight to its responder: a request in, a response out.
        case router
        /// Over a real socket on 127.0.0.1, served by libmicrohttpd in this process.
        case live
    }

    /// The folder everything of this server lives in (HOME): `config/`, `state/`, `tmp/`, `runtime/`, `output/`.
    let home: TemporaryFolder
    let server: NagiServer
    let mode: Mode
    /// The URL `nagi serve` would print.
    let url: String
    /// The port (in `.router` mode, the one the configuration names: it only names the cookie and the Host).
    let port: UInt16
    /// The token requests need, nil for none (`--no-token`).
    let token: String?

    /// A server set up as `nagi serve ARGUMENTS` would be (`--listen`, `--token`, `--no-token`, `--jobs`,
    /// `--max-minutes`; default: loopback, a new token), in `mode`, over HTTPS with `tls` when given.
    init(_ arguments: [String] = [], mode: Mode = .router, tls: TLSIdentity? = nil) throws {
        home = try ServeProcess.makeHome()
        var options: [String: String] = [:]
        var flags: Set<String> = []
        var index = 0
        while index < arguments.count {
            if arguments[index] == "--no-token" {
                flags.insert("--no-token")
                index += 1
            } else {
                options[arguments[index]] = index + 1 < arguments.count ? arguments[index + 1] : ""
                index += 2
            }
        }
        var address = try ListenAddress(parsing: options["--listen"] ?? (mode == .router ? "127.0.0.1:8787" : "127.0.0.1:0"))
        if mode == .router, address.port == 0 { address.port = 8787 }
        token = flags.contains("--no-token") ? nil : options["--token"] ?? RequestGuard.makeToken()
        let configuration = NagiServer.Configuration(
            address: address, token: token, maximumMinutes: Int(options["--max-minutes"] ?? "") ?? 180,
            jobCount: Int(options["--jobs"] ?? "") ?? 2, tls: tls, environment: ServeProcess.environment(home))
        self.mode = mode
        switch mode {
        case .router: server = NagiServer(inProcess: configuration)
        case .live: server = try NagiServer(configuration: configuration)
        }
        url = server.url
        port = ServeProcess.port(in: url) ?? address.port
    }

    deinit {
        server.stop()
    }

    /// The Host header a browser on this machine sends.
    var host: String { "127.0.0.1:\(port)" }

    /// The names left in the server's TMPDIR.
    var temporaryFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: home.file("tmp"))) ?? []).sorted()
    }

    /// A new connection to the server (`.live` only).
    func connect(receiveTimeoutSeconds: Int = 30) throws -> LoopbackConnection {
        precondition(mode == .live, "a connection needs a live server")
        return try LoopbackClient(port: port, token: token).connect(receiveTimeoutSeconds: receiveTimeoutSeconds)
    }

    /// `method target` with this machine's Host (unless `headers` names one), the token as a Bearer header when
    /// `authorized` (and neither the target nor the headers bring one of their own); its whole reply.
    func request(_ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = [], authorized: Bool = true, clientAddress: String = "127.0.0.1") throws -> HTTPReply {
        switch mode {
        case .live:
            return try LoopbackClient(port: port, token: token).request(method, target, headers: headers, body: body, authorized: authorized)
        case .router:
            var all = LoopbackClient.headers(headers, for: target, host: host, token: authorized ? token : nil)
            if !body.isEmpty { all.append(("Content-Length", String(body.count))) }
            let response = server.respond(to: Self.request(method, target, headers: all, body: body, clientAddress: clientAddress))
            var headers = response.headers
            // The length the transport would send (libmicrohttpd's, from the body); a HEAD answer states its own.
            if response.header("content-length") == nil {
                switch response.body {
                case let .bytes(bytes): headers.append(("Content-Length", String(bytes.count)))
                case let .stream(_, byteCount?): headers.append(("Content-Length", String(byteCount)))
                case .stream: break
                }
            }
            return HTTPReply(status: response.status, headers: headers, body: Self.bytes(of: response.body))
        }
    }

    /// `GET target`.
    func get(_ target: String, headers: [(String, String)] = [], authorized: Bool = true, clientAddress: String = "127.0.0.1") throws -> HTTPReply {
        try request("GET", target, headers: headers, authorized: authorized, clientAddress: clientAddress)
    }

    /// The command line's run of `arguments` in this server's environment, in process (give paths absolute).
    func nagi(_ arguments: [String]) throws -> NagiRun {
        let output = CapturedOutput()
        let error = CapturedOutput()
        let status = NagiCommandLine.run(arguments, context: CommandContext(standardOutput: output, standardError: error, environment: ServeProcess.environment(home)))
        return NagiRun(status: status, standardOutput: output.bytes, standardError: error.text)
    }

    /// The path of `name` in the folder the command line writes into.
    func output(_ name: String) -> String { home.file("output/" + name) }

    /// The request libmicrohttpd would hand the server for `target`: the path and query split and percent-decoded
    /// (`+` in the query as a space), `%00` noted.
    static func request(_ method: String, _ target: String, headers: [(String, String)], body: [UInt8], clientAddress: String) -> HTTPRequest {
        let (rawPath, rawQuery) = target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) } ?? (target, "")
        let query = rawQuery.split(separator: "&", omittingEmptySubsequences: true).map { pair -> (name: String, value: String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
        return HTTPRequest(
            method: method, path: rawPath.removingPercentEncoding ?? rawPath, query: query, headers: headers.map { (name: $0.0, value: $0.1) },
            body: body, clientAddress: clientAddress, targetHoldsNUL: target.lowercased().contains("%00"))
    }

    /// A response's whole body as the transport sends it: its bytes, or what its producer writes, up to the length
    /// it declares (a range) or to its end (the stream then finished).
    static func bytes(of body: HTTPResponse.Body) -> [UInt8] {
        switch body {
        case let .bytes(bytes): return bytes
        case let .stream(stream, byteCount):
            defer { stream.finish() }
            let limit = byteCount.map { Int($0) } ?? Int.max
            var collected: [UInt8] = []
            var block = [UInt8](repeating: 0, count: 64 * 1024)
            while collected.count < limit {
                let wanted = min(block.count, limit - collected.count)
                let count = block.withUnsafeMutableBytes { stream.read(into: $0.baseAddress!, count: wanted) }
                guard count > 0 else { break }
                collected += block[0..<count]
            }
            return collected
        }
    }
}
