import CNagiSystem
import FoundationEssentials
import Glibc
import NagiKit
import NagiOptions
import NagiServe
import NagiSystem
import Dispatch
import QRCode

/// `nagi serve`: the engine over HTTP (`NagiServer`), until SIGINT or SIGTERM.
enum ServeCommand {
    static let listen = Option<String>(["--listen"], valueName: "HOST:PORT", help: "Where to listen: an IPv4 address, localhost or [IPv6] and a port (default 127.0.0.1:\(NagiServer.defaultPort); port 0 takes a free one).")
    static let tokenFile = Option<String>(["--token-file"], valueName: "FILE", help: "Read the token every request must carry from FILE's first line (16 to 128 letters, digits, '-', '_', '.' or '~'), so it shows in no process list. $NAGI_TOKEN does the same. Default: a new random token, printed in the URL.")
    static let tokenText = Option<String>(["--token"], valueName: "T", help: "The token itself (as --token-file; visible to other users in ps: prefer the file or $NAGI_TOKEN).")
    static let noToken = Flag(["--no-token"], help: "Serve without a token: on loopback only, and only for a machine whose every user and program you trust (any local process could then use the server).")
    static let maxMinutes = Option<Int>(["--max-minutes"], valueName: "M", help: "The longest session rendered, 1 to 1440 minutes (default 180).", wholeNumberIn: 1...1440)
    static let jobs = Option<Int>(["--jobs"], valueName: "N", help: "Renders at once, 1 to 64 (default: the cores); up to 4 × N more wait their turn, and past that the server answers 503.", wholeNumberIn: 1...64)
    static let qr = Flag(["--qr"], help: "Beyond loopback, draw the first URL as a QR code after the URLs, for a phone's camera (the default when standard output is a terminal).")
    static let noQR = Flag(["--no-qr"], help: "Draw no QR code, even on a terminal.")
    static let tlsCert = Option<String>(["--tls-cert"], valueName: "FILE", help: "Serve HTTPS with this certificate (PEM, the chain after it), with --tls-key.")
    static let tlsKey = Option<String>(["--tls-key"], valueName: "FILE", help: "The private key of --tls-cert (PEM).")
    static let noTLS = Flag(["--no-tls"], help: "Serve plain HTTP beyond loopback (a warning says what a phone loses: no secure context).")

    static let spec = CommandSpec(
        name: "serve",
        summary: "Serve the studio and pacer pages and the engine's API over HTTP (loopback by default).",
        options: [listen.spec, tokenFile.spec, tokenText.spec, noToken.spec, maxMinutes.spec, jobs.spec, qr.spec, noQR.spec, tlsCert.spec, tlsKey.spec, noTLS.spec],
        exclusiveGroups: [[qr.name, noQR.name], [noTLS.name, tlsCert.name], [noTLS.name, tlsKey.name]],
        discussion: """
        The first line of standard output is the URL to open (http://127.0.0.1:8787/?token=…, as Jupyter prints \
        its own). Beyond loopback it prints one URL per address of this machine on the network instead (0.0.0.0 \
        names every interface, and no phone can open it; home networks' private addresses first), then draws the \
        first as a QR code a phone's camera opens (--qr, --no-qr); GET /api/qr.svg is the same code for the studio. \
        Beyond loopback it serves HTTPS (a phone's browser gives only a secure context its service worker, wake \
        lock and Bluetooth): with --tls-cert and --tls-key, or else with a certificate for this machine's names and \
        addresses signed by a local authority made once in $XDG_CONFIG_HOME/nagi/tls/, whose certificate GET \
        /ca.crt gives without a token, for the phone to trust once (docs/serve.md). The page keeps the token in a \
        cookie after that first visit (nagi_token_PORT), and a program sends 'Authorization: Bearer TOKEN'. Every \
        request needs the token, on loopback too: any process or page on this machine could otherwise use the \
        server. Ten wrong tokens from one address in a minute make it wait (429) for the rest of that minute. On \
        loopback the Host header must name this machine (a page of another site cannot reach the server through \
        DNS rebinding). No request names a file: patterns, soundscapes and courses by preset name or inline text, \
        beds and cue packs by name from $XDG_CONFIG_HOME/nagi/beds/ and cue-packs/. Limits: a session of at most \
        --max-minutes and 20000 phases for every request that computes (describe, plot, render, resonance: 422 \
        past it); a request line of 8 KiB (414 past it) and headers of 16 KiB and 100 lines (431) within 5 s, a \
        malformed request 400 (plain HTTP on the HTTPS port too, naming its https:// URL), a body 8 MiB (413) within 15 s, \
        read only once the token is checked; connections idle for 20 s closed, 320 connections at once (160 from \
        one address). Ctrl-C or SIGTERM stops it: renders in flight are cancelled and their files removed, and it \
        exits 0 within 2 s.

        The pages: / (the studio) and /pace (the pacer). The API (docs/serve.md): GET /api/presets, \
        /api/describe, /api/render.{wav,flac,ogg,opus,mp3}, /api/plot.svg, /api/courses/NAME (and its lessons \
        and album.zip); POST /api/resonance. Query parameters are the command line's option names without the \
        dashes (pattern=4-7-8&minutes=5&soundscape=night&end-bell=1), and a refusal is one JSON object with the \
        line nagi would print: {"error": "…"}.

        Examples:
          nagi serve
          nagi serve --listen 0.0.0.0:8787
          curl -o box.flac 'http://127.0.0.1:8787/api/render.flac?pattern=box&minutes=5'
          curl 'http://127.0.0.1:8787/api/describe?pattern=4-7-8&cycles=2'
        """
    )

    static func run(_ arguments: ParsedArguments) throws(NagiError) {
        let address: ListenAddress
        do {
            address = try ListenAddress(parsing: arguments.text(of: listen) ?? "127.0.0.1:\(NagiServer.defaultPort)")
        } catch {
            throw .usage(error.message)
        }
        let token = try token(arguments, address: address)
        let maximumMinutes: Int
        let jobCount: Int
        do {
            maximumMinutes = try arguments[maxMinutes] ?? 180
            jobCount = try arguments[jobs] ?? ProcessInfo.processInfo.activeProcessorCount
        } catch {
            throw .arguments(error)
        }
        let (tls, authority) = try security(arguments, address: address)
        Console.installStopHandlers()
        let server: NagiServer
        do {
            server = try NagiServer(configuration: NagiServer.Configuration(
                address: address, token: token, maximumMinutes: maximumMinutes, jobCount: jobCount, tls: tls, authorityCertificatePEM: authority))
        } catch {
            throw .unavailable(error.message)
        }
        let urls = server.joinURLs
        Console.out(urls.map { $0 + "\n" }.joined())
        if !address.isLoopback, arguments[qr] || (!arguments[noQR] && CommandContext.current.standardOutputIsTerminal) {
            do {
                Console.out(try QRCode(encoding: urls[0]).terminalText)
            } catch {
                Console.err("nagi serve: \(error.message)\n")
            }
        }
        if token == nil {
            Console.err("nagi serve: warning: no token (--no-token): any program or user on this machine can use this server\n")
        }
        Console.err("nagi serve: serving on \(urls.joined(separator: ", "))\(address.isLoopback ? " (this machine only)" : ""); Ctrl-C stops it\n")
        while CommandContext.current.stopSignal() == nil {
            usleep(50_000)
        }
        stopWithin(server, seconds: 1.5)
        server.removeLeftoverFolders()
        Console.err("nagi serve: stopped\n")
    }

    /// Stops `server`, waiting at most `seconds` for it: work in flight that does not stop by then (a connection's
    /// thread busy in a long computation, which libmicrohttpd joins) is left to the process's exit, so SIGTERM is
    /// obeyed at once whatever a client asked for.
    static func stopWithin(_ server: NagiServer, seconds: Double) {
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.stop()
            stopped.signal()
        }
        _ = stopped.wait(timeout: .now() + seconds)
    }

    /// The token the server requires: `--token`, `--token-file`, `$NAGI_TOKEN` or a new one; nil with `--no-token`
    /// (loopback only).
    /// - Throws: a usage fault for two sources at once or `--no-token` beyond loopback, an argument fault for a token
    ///   of the wrong form, an input fault for an unreadable file.
    static func token(_ arguments: ParsedArguments, address: ListenAddress) throws(NagiError) -> String? {
        let given = [(tokenText.name, arguments.isSet(tokenText)), (tokenFile.name, arguments.isSet(tokenFile)), (noToken.name, arguments[noToken])]
            .filter(\.1).map(\.0)
        guard given.count <= 1 else { throw .usage("\(given[0]) and \(given[1]) both say what the token is; give one") }
        if arguments[noToken] {
            guard address.isLoopback else {
                throw .usage("--no-token serves only on loopback: beyond it every request needs a token (\(address.text) is not loopback)")
            }
            return nil
        }
        let option: String
        let token: String
        if let value = arguments.text(of: tokenText) {
            (option, token) = (tokenText.name, value)
        } else if let path = arguments.text(of: tokenFile) {
            option = tokenFile.name
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw .noInput("cannot read the token file \(path)")
            }
            let text = String(decoding: bytes, as: UTF8.self)
            token = String(text.prefix { $0 != "\n" && $0 != "\r" })
        } else if let value = ProcessEnvironment.value("NAGI_TOKEN"), !value.isEmpty {
            (option, token) = ("NAGI_TOKEN", value)
        } else {
            return RequestGuard.makeToken()
        }
        guard isValidToken(token) else {
            throw .arguments(.invalidValue(option: option, value: option == tokenText.name ? token : "…", expected: "16 to 128 letters, digits, '-', '_', '.' or '~'"))
        }
        return token
    }

    /// The certificate and key to serve HTTPS with, and the local authority's certificate when it signed them:
    /// `--tls-cert` and `--tls-key`; else beyond loopback the local authority's (`LocalAuthority`), for this
    /// machine's host names and addresses; nil on loopback and with `--no-tls` (which warns beyond loopback).
    private static func security(_ arguments: ParsedArguments, address: ListenAddress) throws(NagiError) -> (TLSIdentity?, String?) {
        let certificatePath = arguments.text(of: tlsCert)
        let keyPath = arguments.text(of: tlsKey)
        if certificatePath != nil || keyPath != nil {
            guard let certificatePath, let keyPath else {
                throw .usage("--tls-cert and --tls-key go together: a certificate and its key")
            }
            return (TLSIdentity(certificatePEM: try pemFile(certificatePath, option: tlsCert.name), keyPEM: try pemFile(keyPath, option: tlsKey.name)), nil)
        }
        guard !address.isLoopback else { return (nil, nil) }
        if arguments[noTLS] {
            Console.err("nagi serve: warning: plain HTTP beyond loopback: a phone's browser gives such a page no secure context (no install, no offline use, no wake lock, no heart strap), and the token crosses the network readable\n")
            return (nil, nil)
        }
        guard HTTPServer.supportsTLS else {
            throw .unavailable("this libmicrohttpd serves no HTTPS (built without GnuTLS): give --no-tls to serve plain HTTP")
        }
        guard let authority = LocalAuthority() else {
            throw .unavailable("no folder for the local certificate authority: set HOME or XDG_CONFIG_HOME, or give --tls-cert and --tls-key")
        }
        let hosts = LANAddresses.hosts(for: address)
        let addresses = ["127.0.0.1", "::1"] + hosts.map { $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0 }
        let name = LANAddresses.hostName
        let names = Array(Set(["localhost", name, name + ".local"])).sorted()
        do {
            return (try authority.serverIdentity(hostNames: names, addresses: addresses), try authority.authorityCertificate())
        } catch {
            throw .cannotCreate(error.message)
        }
    }

    /// A PEM file's text.
    /// - Throws: `.noInput` when it cannot be read or holds no PEM block.
    private static func pemFile(_ path: String, option: String) throws(NagiError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .noInput("\(option) \(path): cannot read it")
        }
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains("-----BEGIN ") else { throw .noInput("\(option) \(path): not a PEM file") }
        return text
    }

    /// Whether `token` is one a URL carries as it is: 16 to 128 unreserved characters.
    static func isValidToken(_ token: String) -> Bool {
        (RequestGuard.minimumTokenLength...128).contains(token.utf8.count) && token.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-_.~".utf8.contains(byte)
        }
    }
}
