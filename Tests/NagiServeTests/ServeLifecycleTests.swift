import Foundation
import Glibc
import NagiCLI
import NagiTestSupport
import Testing

/// The server's life: its URL first, refusals at the start, streaming, a client that goes away, and a clean stop.
@Suite struct ServeLifecycleTests {
    @Test("The first line of standard output is the URL, with the free port it took and a new token, on loopback too; each server makes its own")
    func firstLineIsTheURL() throws {
        let server = try ServeProcess()
        #expect(server.port > 0)
        let token = try #require(server.token)
        #expect(server.url == "http://127.0.0.1:\(server.port)/?token=\(token)")
        #expect(token.count == 48 && token.allSatisfy { $0.isHexDigit }, "\(server.url)")
        #expect(server.standardError.contains("this machine only"))
        #expect(try server.get("/", authorized: false).status == 401)
        #expect(try server.get("/?token=\(token)").status == 200)
        let other = try ServeProcess(["--listen", "0.0.0.0:0", "--no-tls"])
        #expect(other.token != nil && other.token != token)
        #expect(try other.get("/api/presets?token=\(token)").status == 401)
    }

    @Test("A bad --token, --token-file, --listen or --jobs, two token sources or --no-token beyond loopback is refused at the start with exit 64 and one line", arguments: [
        ["--token", "short"], ["--token", "fifteen-letters"], ["--token", "has space in it and more"], ["--listen", "nowhere"],
        ["--listen", "127.0.0.1:99999"], ["--jobs", "0"], ["--max-minutes", "0"], ["--listen", "0.0.0.0:0", "--no-token"],
        ["--token", "abcdefgh12345678", "--no-token"], ["--token-file", "TOKENFILE", "--token", "abcdefgh12345678"], ["--token-file", "TOKENFILE"],
    ])
    func badOptionsAreRefused(arguments: [String]) throws {
        let home = try TemporaryFolder()
        try "short\n".write(toFile: home.file("token"), atomically: true, encoding: .utf8)
        let run = Self.serve(arguments.map { $0 == "TOKENFILE" ? home.file("token") : $0 }, home: home)
        #expect(run.status == 64, "\(run.standardError)")
        #expect(run.standardError.hasPrefix("nagi: error: ") && run.standardError.filter { $0 == "\n" }.count == 1, "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
    }

    @Test("The token from --token-file's first line or from $NAGI_TOKEN is the one the URL carries; neither shows in the arguments")
    func tokenFromFileOrEnvironment() throws {
        let home = try TemporaryFolder()
        let fromFile = "token-from-a-file_0123456789"
        try (fromFile + "\nsecond line ignored\n").write(toFile: home.file("token"), atomically: true, encoding: .utf8)
        let filed = Self.serve(["--listen", "127.0.0.1:0", "--token-file", home.file("token")], home: home)
        #expect(filed.status == 0, "\(filed.standardError)")
        #expect(filed.standardOutputText.hasSuffix("/?token=\(fromFile)\n"), "\(filed.standardOutputText)")
        let fromEnvironment = "token.from.the.environment~42"
        let environed = Self.serve(["--listen", "127.0.0.1:0"], home: home, environment: ["NAGI_TOKEN": fromEnvironment])
        #expect(environed.status == 0, "\(environed.standardError)")
        #expect(environed.standardOutputText.hasSuffix("/?token=\(fromEnvironment)\n"), "\(environed.standardOutputText)")
        let open = Self.serve(["--listen", "127.0.0.1:0", "--no-token"], home: home)
        #expect(open.status == 0)
        #expect(open.standardOutputText.hasSuffix("/\n") && !open.standardOutputText.contains("token"), "\(open.standardOutputText)")
        #expect(open.standardError.contains("warning: no token"), "\(open.standardError)")
    }

    @Test("A port in use is refused with one line naming the address, not a crash")
    func portInUse() throws {
        let first = try InProcessServer(mode: .live)
        let home = try TemporaryFolder()
        let run = Self.serve(["--listen", "127.0.0.1:\(first.port)"], home: home)
        #expect(run.status == 69, "\(run.standardError)")
        #expect(run.standardError.contains("127.0.0.1:\(first.port)") && run.standardError.filter { $0 == "\n" }.count == 1, "\(run.standardError)")
    }

    /// `nagi serve ARGUMENTS` run in process in `home`'s folders, asked to stop (SIGTERM) once it has printed its
    /// URL: what it printed and its exit code.
    static func serve(_ arguments: [String], home: TemporaryFolder, environment: [String: String] = [:]) -> NagiRun {
        let output = CapturedOutput()
        let error = CapturedOutput()
        let context = CommandContext(
            standardOutput: output, standardError: error, environment: ServeProcess.environment(home).merging(environment) { $1 },
            stopSignal: { output.bytes.contains(UInt8(ascii: "\n")) ? SIGTERM : nil })
        let status = NagiCommandLine.run(["serve"] + arguments, context: context)
        return NagiRun(status: status, standardOutput: output.bytes, standardError: error.text)
    }

    @Test("An hour's WAV is streamed: its exact length first, then its first 64 KiB long before the hour could be rendered")
    func longWAVIsStreamed() throws {
        let server = try ServeProcess()
        let connection = try server.connect()
        let start = Date()
        try connection.sendRequest("GET", "/api/render.wav?pattern=4-7-8&minutes=60&soundscape=night", headers: [("Host", server.host), server.authorization])
        let head = try connection.readHead()
        #expect(head.status == 200)
        let length = try #require(head.headers.last { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) })
        let first = try connection.readBytes(64 * 1024)
        let seconds = Date().timeIntervalSince(start)
        #expect(first.count == 64 * 1024)
        #expect(seconds < 10, "the first 64 KiB took \(seconds) s")
        // The same header chunks and samples as nagi render's WAV into a pipe (which leaves its sizes "unknown": the
        // server gives them exactly).
        #expect(try server.shell("\"$NAGI\" render 4-7-8 --minutes 60 --soundscape night -o - --format wav --quiet | head -c 65536 > head.wav") == 0)
        let rendered = try WAVChunks(Array(try Data(contentsOf: URL(fileURLWithPath: server.output("head.wav")))))
        let header = try WAVChunks(first)
        #expect(header.dataOffset == rendered.dataOffset)
        let servedChunks: [UInt8] = Array(first[12..<(header.dataOffset - 8)])
        let renderedChunks: [UInt8] = Array(rendered.bytes[12..<(rendered.dataOffset - 8)])
        let sameChunks = servedChunks == renderedChunks
        #expect(sameChunks, "the header's chunks differ from nagi render's")
        let sameSamples = header.data == rendered.data
        #expect(sameSamples, "the first samples differ from nagi render's")
        #expect(header.dataDeclaredByteCount > 59 * 60 * 48_000 * 4)
        #expect(length == header.dataOffset + header.dataDeclaredByteCount, "\(length)")
        #expect(header.riffDeclaredByteCount == length - 8)
        // The same bytes as a range of the same file.
        connection.reset()
        let range = try server.get("/api/render.wav?pattern=4-7-8&minutes=60&soundscape=night", headers: [("Range", "bytes=0-65535")])
        #expect(range.status == 206)
        let sameBytes = range.body == first
        #expect(sameBytes)
    }

    @Test("SIGTERM or SIGINT mid-download: exit 0 at once, the download cut short, nothing left in TMPDIR", arguments: [SIGTERM, SIGINT])
    func signalStopsCleanly(signal: Int32) throws {
        let server = try ServeProcess()
        let download = try server.connect()
        try download.sendRequest("GET", "/api/render.wav?pattern=4-7-8&minutes=60&soundscape=rain", headers: [("Host", server.host), server.authorization])
        let head = try download.readHead()
        #expect(head.status == 200)
        let length = try #require(head.headers.last { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) })
        // A course's album, exported into a folder of TMPDIR before it is archived: in flight too.
        let album = try server.connect()
        try album.sendRequest("GET", "/api/courses/beginner-21/album.zip?format=wav", headers: [("Host", server.host), server.authorization])
        let albumStarted = Poll.until(seconds: 10, every: 0.02) { !server.temporaryFiles.isEmpty }
        #expect(albumStarted, "the album's export made no folder in TMPDIR")
        let start = Date()
        let status = server.stop(signal, seconds: 10)
        let seconds = Date().timeIntervalSince(start)
        #expect(status == 0, "exit status \(status.map(String.init) ?? "none (still running)")")
        #expect(seconds < 3, "it took \(seconds) s to stop")
        #expect(server.standardError.hasSuffix("nagi serve: stopped\n"), "\(server.standardError)")
        #expect(server.temporaryFiles.isEmpty, "left in TMPDIR: \(server.temporaryFiles)")
        let received = try download.readToEnd()
        #expect(received.count < length, "the download was not cut short")
        _ = try? album.readToEnd()
    }

    @Test("SIGTERM with the largest describes and plots in flight beside a render: exit 0 within 2 s")
    func signalStopsBusyServer() throws {
        let server = try ServeProcess()
        let largest = "pattern=0.5-0.5&cycles=10000"
        var busy: [LoopbackConnection] = []
        for path in ["/api/describe", "/api/describe", "/api/plot.svg", "/api/render.flac"] {
            let connection = try server.connect()
            try connection.sendRequest("GET", "\(path)?\(largest)", headers: [("Host", server.host), server.authorization])
            busy.append(connection)
        }
        Thread.sleep(forTimeInterval: 0.3)
        let start = Date()
        let status = server.stop(SIGTERM, seconds: 10)
        let seconds = Date().timeIntervalSince(start)
        #expect(status == 0, "exit status \(status.map(String.init) ?? "none (still running)"); it said: \(server.standardError.suffix(4000))")
        #expect(seconds < 2, "it took \(seconds) s to stop")
        #expect(server.temporaryFiles.isEmpty, "left in TMPDIR: \(server.temporaryFiles)")
    }

    @Test("Sixty connections without a token, each sending 1 MB of a declared 10 MB body, add under 50 MB to the server")
    func tokenlessBodiesCostNothing() throws {
        let server = try ServeProcess()
        #expect(try server.get("/api/presets").status == 200)
        let before = server.residentBytes
        let megabyte = [UInt8](repeating: UInt8(ascii: "1"), count: 1 << 20)
        var connections: [LoopbackConnection] = []
        for _ in 0..<60 {
            let connection = try server.connect(receiveTimeoutSeconds: 5)
            try connection.send("POST /api/resonance?pattern=resonance-steps HTTP/1.1\r\nHost: \(server.host)\r\nContent-Length: \(10 << 20)\r\n\r\n")
            // The server answers 401 after the head and closes: the body's send may fail part way, as it should.
            try? connection.send(megabyte)
            connections.append(connection)
        }
        let after = server.residentBytes
        #expect(before > 0 && after > 0)
        #expect(after - before < 50 << 20, "the server grew by \((after - before) >> 20) MiB")
        for connection in connections { #expect(connection.closesWithin(seconds: 10)) }
        #expect(try server.get("/api/presets").status == 200)
    }
}
