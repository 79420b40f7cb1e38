import CNagiSystem
import FoundationEssentials
import Glibc
import NagiKit
import NagiOptions
import NagiServe
import QRCode

/// `nagi serve`: the engine over HTTP (`NagiServer`), until SIGINT or SIGTERM.
enum ServeCommand {
    static let spec = CommandSpec(
        name: "serve",
        summary: "Serve the studio and pacer pages and the engine's API over HTTP (loopback by default).",
        options: [
            OptionSpec(names: ["--listen"], valueName: "HOST:PORT", help: "Where to listen: an IPv4 address, localhost or [IPv6] and a port (default 127.0.0.1:\(NagiServer.defaultPort); port 0 takes a free one). Beyond loopback (0.0.0.0 for every interface) a token is required."),
            OptionSpec(names: ["--token"], valueName: "T", help: "The token every request must carry (8 to 128 letters, digits, '-', '_', '.' or '~'). Default: none on loopback, a new random one beyond it."),
            OptionSpec(names: ["--max-minutes"], valueName: "M", help: "The longest session rendered, 1 to 1440 minutes (default 180)."),
            OptionSpec(names: ["--jobs"], valueName: "N", help: "Renders at once, 1 to 64 (default: the cores); up to 4 × N more wait their turn, and past that the server answers 503."),
            OptionSpec(names: ["--qr"], help: "Beyond loopback, draw the first URL as a QR code after the URLs, for a phone's camera (the default when standard output is a terminal)."),
            OptionSpec(names: ["--no-qr"], help: "Draw no QR code, even on a terminal."),
        ],
        exclusiveGroups: [["--qr", "--no-qr"]],
        discussion: """
        The first line of standard output is the URL to open (http://127.0.0.1:8787/, with ?token=… when there is \
        a token). Beyond loopback it prints one URL per address of this machine on the network instead (0.0.0.0 \
        names every interface, and no phone can open it; home networks' private addresses first), then draws the \
        first as a QR code a phone's camera opens (--qr, --no-qr); GET /api/qr.svg is the same code for the studio. \
        The page keeps the token in a cookie after that first visit, and a program sends \
        'Authorization: Bearer TOKEN'. On loopback the Host header must name this machine (a page of another site \
        cannot reach the server through DNS rebinding). No request names a file: patterns, soundscapes and courses \
        by preset name or inline text, beds and cue packs by name from $XDG_CONFIG_HOME/nagi/beds/ and \
        cue-packs/. Limits: request line and headers 32 KiB (414 or 431 past it), a body 8 MiB (413), \
        connections idle for 20 s closed, 256 connections at once (128 from one address). Ctrl-C or SIGTERM \
        stops it: renders in flight are cancelled and their files removed, and it exits 0.

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

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        let address: ListenAddress
        do {
            address = try ListenAddress(parsing: arguments.value("--listen") ?? "127.0.0.1:\(NagiServer.defaultPort)")
        } catch {
            throw .usage(error.message)
        }
        var token = arguments.value("--token")
        if let token, !isValidToken(token) {
            throw .arguments(.invalidValue(option: "--token", value: token, expected: "8 to 128 letters, digits, '-', '_', '.' or '~'"))
        }
        if token == nil, !address.isLoopback { token = RequestGuard.makeToken() }
        let maximumMinutes: Int
        let jobCount: Int
        do {
            maximumMinutes = try arguments.int("--max-minutes", in: 1...1440) ?? 180
            jobCount = try arguments.int("--jobs", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
        } catch {
            throw .arguments(error)
        }
        Console.installStopHandlers()
        let server: NagiServer
        do {
            server = try NagiServer(configuration: NagiServer.Configuration(address: address, token: token, maximumMinutes: maximumMinutes, jobCount: jobCount))
        } catch {
            throw .unavailable(error.message)
        }
        let urls = server.joinURLs
        Console.out(urls.map { $0 + "\n" }.joined())
        if !address.isLoopback, arguments.isSet("--qr") || (!arguments.isSet("--no-qr") && CommandContext.current.standardOutputIsTerminal) {
            do {
                Console.out(try QRCode(encoding: urls[0]).terminalText)
            } catch {
                Console.err("nagi serve: \(error.message)\n")
            }
        }
        Console.err("nagi serve: serving on \(urls.joined(separator: ", "))\(address.isLoopback ? " (this machine only)" : ""); Ctrl-C stops it\n")
        while CommandContext.current.stopSignal() == nil {
            usleep(100_000)
        }
        server.stop()
        Console.err("nagi serve: stopped\n")
    }

    /// Whether `token` is one a URL carries as it is: 8 to 128 unreserved characters.
    static func isValidToken(_ token: String) -> Bool {
        (8...128).contains(token.utf8.count) && token.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-_.~".utf8.contains(byte)
        }
    }
}
