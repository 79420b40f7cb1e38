import Foundation
import Glibc
import NagiTestSupport
import Testing

/// The server's life: its URL first, refusals at the start, streaming, a client that goes away, and a clean stop.
@Suite struct ServeLifecycleTests {
    @Test("The first line of standard output is the URL, with the free port it took")
    func firstLineIsTheURL() throws {
        let server = try ServeProcess()
        #expect(server.port > 0)
        #expect(server.url == "http://127.0.0.1:\(server.port)/")
        #expect(server.standardError.contains("this machine only"))
        #expect(try server.get("/").status == 200)
    }

    @Test("A bad --token, --listen or --jobs is refused at the start with exit 64 and one line", arguments: [
        ["--token", "short"], ["--token", "has space in it"], ["--listen", "nowhere"], ["--listen", "127.0.0.1:99999"],
        ["--jobs", "0"], ["--max-minutes", "0"],
    ])
    func badOptionsAreRefused(arguments: [String]) throws {
        let home = try TemporaryFolder()
        let child = try ChildProcess(
            NagiBinary.url.path, ["serve"] + arguments, environment: ServeProcess.environment(home),
            standardOutputPath: home.file("stdout"), standardErrorPath: home.file("stderr"))
        #expect(child.wait(seconds: 10))
        #expect(child.exitStatus == 64)
        let error = try String(contentsOfFile: home.file("stderr"), encoding: .utf8)
        #expect(error.hasPrefix("nagi: error: ") && error.filter { $0 == "\n" }.count == 1, "\(error)")
        #expect(try String(contentsOfFile: home.file("stdout"), encoding: .utf8).isEmpty)
    }

    @Test("A port in use is refused with one line naming the address, not a crash")
    func portInUse() throws {
        let first = try ServeProcess()
        let home = try TemporaryFolder()
        let child = try ChildProcess(
            NagiBinary.url.path, ["serve", "--listen", "127.0.0.1:\(first.port)"], environment: ServeProcess.environment(home),
            standardOutputPath: home.file("stdout"), standardErrorPath: home.file("stderr"))
        #expect(child.wait(seconds: 10))
        let error = try String(contentsOfFile: home.file("stderr"), encoding: .utf8)
        #expect(child.exitStatus == 69, "\(error)")
        #expect(error.contains("127.0.0.1:\(first.port)") && error.filter { $0 == "\n" }.count == 1, "\(error)")
    }

    @Test("An hour's WAV is streamed: its exact length first, then its first 64 KiB long before the hour could be rendered")
    func longWAVIsStreamed() throws {
        let server = try ServeProcess()
        let connection = try server.connect()
        let start = Date()
        try connection.sendRequest("GET", "/api/render.wav?pattern=4-7-8&minutes=60&soundscape=night", headers: [("Host", server.host)])
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

    @Test("A client that goes away mid-download stops its render: the server idles, and its one slot is free again")
    func droppedClientStopsItsRender() throws {
        let server = try ServeProcess(["--listen", "127.0.0.1:0", "--jobs", "1"])
        let connection = try server.connect()
        try connection.sendRequest("GET", "/api/render.wav?pattern=box&minutes=60&soundscape=rain", headers: [("Host", server.host)])
        #expect(try connection.readHead().status == 200)
        #expect(try connection.readBytes(1 << 20).count == 1 << 20)
        connection.reset()
        // Let the server notice, then measure what it spends.
        Thread.sleep(forTimeInterval: 0.5)
        let before = server.cpuSeconds
        Thread.sleep(forTimeInterval: 2)
        let spent = server.cpuSeconds - before
        #expect(spent < 0.3, "the server used \(spent) s of CPU in the 2 s after its client left")
        // The one render slot was given back: another render is served at once.
        let start = Date()
        let next = try server.get("/api/render.wav?pattern=box&cycles=1&cues=none")
        #expect(next.status == 200)
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test("SIGTERM or SIGINT mid-download: exit 0 at once, the download cut short, nothing left in TMPDIR", arguments: [SIGTERM, SIGINT])
    func signalStopsCleanly(signal: Int32) throws {
        let server = try ServeProcess()
        let download = try server.connect()
        try download.sendRequest("GET", "/api/render.wav?pattern=4-7-8&minutes=60&soundscape=rain", headers: [("Host", server.host)])
        let head = try download.readHead()
        #expect(head.status == 200)
        let length = try #require(head.headers.last { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) })
        // A course's album, exported into a folder of TMPDIR before it is archived: in flight too.
        let album = try server.connect()
        try album.sendRequest("GET", "/api/courses/beginner-21/album.zip?format=wav", headers: [("Host", server.host)])
        let albumStarted = Poll.until(seconds: 10, every: 0.02) { !server.temporaryFiles.isEmpty }
        #expect(albumStarted, "the album's export made no folder in TMPDIR")
        // How fast this machine, as busy as it is now, delivers the download: past what the socket buffers held,
        // 4 MiB timed. "At once" is measured against that pace, not against a fixed number of seconds.
        var received = try download.readBytes(2 << 20).count
        let paceStart = Date()
        received += try download.readBytes(4 << 20).count
        let bytesPerSecond = Double(4 << 20) / max(Date().timeIntervalSince(paceStart), 1e-3)
        let finishingSeconds = Double(length - received) / bytesPerSecond
        let start = Date()
        let status = server.stop(signal, seconds: max(10, finishingSeconds / 10))
        let seconds = Date().timeIntervalSince(start)
        #expect(status == 0, "exit status \(status.map(String.init) ?? "none (still running)")")
        #expect(seconds < finishingSeconds / 10, "it took \(seconds) s to stop, over a tenth of the \(finishingSeconds) s the download still needed")
        #expect(server.standardError.hasSuffix("nagi serve: stopped\n"), "\(server.standardError)")
        #expect(server.temporaryFiles.isEmpty, "left in TMPDIR: \(server.temporaryFiles)")
        received += try download.readToEnd().count
        #expect(received < length, "the download was not cut short")
        _ = try? album.readToEnd()
    }
}
