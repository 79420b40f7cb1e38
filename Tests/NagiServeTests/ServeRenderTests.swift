import AudioFile
import Foundation
import NagiTestSupport
import Testing

/// `GET /api/render.EXT` against `nagi render`: the same options give the same samples, and a WAV's ranges are
/// exactly the bytes of the whole file.
@Suite struct ServeRenderTests {
    /// The API's file for `session` and the command line's, both decoded by libsndfile.
    static func renderedBothWays(_ server: InProcessServer, _ session: SessionOptions, format: String) throws -> (reply: HTTPReply, served: [Float], rendered: [Float], servedPath: String, renderedPath: String) {
        let reply = try server.get("/api/render.\(format)?" + session.query)
        #expect(reply.status == 200, "\(reply.text.prefix(300))")
        let servedPath = server.output("served.\(format)")
        try Data(reply.body).write(to: URL(fileURLWithPath: servedPath))
        let renderedPath = server.output("rendered.\(format)")
        let run = try server.nagi(["render"] + session.arguments + ["-o", renderedPath, "--quiet"])
        #expect(run.status == 0, "\(run.standardError)")
        return (reply, try AudioFileReader.readFloat(path: servedPath), try AudioFileReader.readFloat(path: renderedPath), servedPath, renderedPath)
    }

    /// The first index where two sample arrays differ, for a failure's message.
    static func firstDifference(_ a: [Float], _ b: [Float]) -> String {
        guard a.count == b.count else { return "\(a.count) samples against \(b.count)" }
        guard let index = Signal.firstDifference(a, b) else { return "none" }
        return "sample \(index): \(a[index]) against \(b[index])"
    }

    @Test("WAV through the API: the bytes of nagi render's data chunk, with an exact Content-Length", arguments: [
        SessionOptions("4-7-8", [("cycles", "1"), ("soundscape", "rain"), ("rate", "44100")]),
        SessionOptions("box", [("cycles", "1"), ("bits", "24"), ("channels", "1"), ("end-bell", ""), ("seed", "7")]),
    ])
    func wavEqualsCommandLine(session: SessionOptions) throws {
        let server = try InProcessServer()
        let both = try Self.renderedBothWays(server, session, format: "wav")
        #expect(both.reply.header("content-type") == "audio/wav")
        #expect(both.reply.header("accept-ranges") == "bytes")
        #expect(both.reply.header("content-length") == String(both.reply.body.count))
        #expect(both.served.count > 48_000, "a session of a cycle lasts seconds")
        // Compared first, then expected: #expect would print both arrays whole on a failure.
        let sameSamples = both.served == both.rendered
        #expect(sameSamples, "\(Self.firstDifference(both.served, both.rendered))")
        // The PCM itself, byte for byte: the data chunk of each file.
        let served = try WAVChunks(both.reply.body)
        let rendered = try WAVChunks(Array(Data(contentsOf: URL(fileURLWithPath: both.renderedPath))))
        #expect(served.format == rendered.format)
        let sameBytes = served.data == rendered.data
        #expect(sameBytes, "the data chunks differ")
        #expect(served.dataOffset + served.data.count == both.reply.body.count, "the body ends with the samples")
    }

    @Test("FLAC through the API: the samples of nagi render", arguments: [
        SessionOptions("box", [("cycles", "1"), ("soundscape", "night"), ("bits", "24")]),
        SessionOptions("coherent", [("cycles", "2"), ("cues", "none"), ("channels", "1"), ("rate", "22050")]),
    ])
    func flacEqualsCommandLine(session: SessionOptions) throws {
        let server = try InProcessServer()
        let both = try Self.renderedBothWays(server, session, format: "flac")
        #expect(both.reply.header("content-type") == "audio/flac")
        #expect(Array(both.reply.body.prefix(4)) == Array("fLaC".utf8))
        #expect(both.served.count > 22_050)
        // Compared first, then expected: #expect would print both arrays whole on a failure.
        let sameSamples = both.served == both.rendered
        #expect(sameSamples, "\(Self.firstDifference(both.served, both.rendered))")
        let info = try AudioFileReader.info(path: both.servedPath)
        let renderedInfo = try AudioFileReader.info(path: both.renderedPath)
        #expect(info.sampleRate == renderedInfo.sampleRate && info.channelCount == renderedInfo.channelCount)
    }

    @Test("Ogg Vorbis and Opus through the API decode to the samples of nagi render's file", arguments: ["ogg", "opus"])
    func lossyFormatsEqualCommandLine(format: String) throws {
        let server = try InProcessServer()
        let both = try Self.renderedBothWays(server, SessionOptions("box", [("cycles", "1"), ("soundscape", "dusk")]), format: format)
        #expect(both.served.count > 48_000)
        let sameSamples = both.served == both.rendered
        #expect(sameSamples, "\(Self.firstDifference(both.served, both.rendered))")
    }

    /// LAME's encoder delay (576 + 529 frames), which a file's LAME tag tells a decoder to drop. `nagi render` writes
    /// the tag when the file is done (it seeks back); a stream cannot, so its decoder plays the delay and the padding.
    static let lameDelayFrameCount = 1105

    /// Every sample of an MP3 as ffmpeg decodes it (32-bit float, interleaved): libsndfile's reader misjudges the
    /// length of an MP3 written into a pipe, which carries no LAME tag (AudioFileWriter says so too).
    static func ffmpegSamples(_ path: String) throws -> [Float] {
        let raw = path + ".f32"
        let result = try Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", path, "-f", "f32le", raw])
        try #require(result.status == 0, "\(result.output)")
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test("MP3 through the API decodes to nagi render's samples after LAME's encoder delay (a stream carries no LAME tag)")
    func mp3EqualsCommandLineAfterTheEncoderDelay() throws {
        let server = try InProcessServer()
        let both = try Self.renderedBothWays(server, SessionOptions("box", [("cycles", "1"), ("soundscape", "dusk")]), format: "mp3")
        let served = try Self.ffmpegSamples(both.servedPath)
        let rendered = try Self.ffmpegSamples(both.renderedPath)
        #expect(rendered.count == both.rendered.count, "ffmpeg drops the encoder delay of nagi render's file, as libsndfile does")
        let delay = Self.lameDelayFrameCount * 2
        try #require(served.count >= delay + rendered.count, "\(served.count) samples against \(rendered.count)")
        let after = Array(served[delay..<(delay + rendered.count)])
        let sameSamples = after == rendered
        #expect(sameSamples, "\(Self.firstDifference(after, rendered))")
        let silentDelay = served[..<delay].allSatisfy { abs($0) < 1e-3 }
        #expect(silentDelay, "the delay is near silence")
    }

    @Test("A WAV range (206) is exactly those bytes of the whole file, wherever it starts and ends")
    func wavRangesAreSlicesOfTheWholeFile() throws {
        let server = try InProcessServer()
        // Stereo 24-bit: a frame is 6 bytes, so most offsets below fall inside a frame.
        let query = "/api/render.wav?" + SessionOptions("box", [("cycles", "1"), ("soundscape", "night"), ("bits", "24")]).query
        let whole = try server.get(query)
        try #require(whole.status == 200)
        let total = whole.body.count
        let dataOffset = try WAVChunks(whole.body).dataOffset
        let ranges: [(header: String, first: Int, last: Int)] = [
            ("bytes=0-99", 0, 99),
            ("bytes=10-\(dataOffset + 999)", 10, dataOffset + 999),
            ("bytes=\(dataOffset)-\(dataOffset + 5)", dataOffset, dataOffset + 5),
            ("bytes=\(dataOffset + 100_001)-\(dataOffset + 300_003)", dataOffset + 100_001, dataOffset + 300_003),
            ("bytes=\(total / 2 + 1)-", total / 2 + 1, total - 1),
            ("bytes=-1001", total - 1001, total - 1),
            ("bytes=\(total - 7)-\(total + 5000)", total - 7, total - 1),
            ("bytes=\(total - 1)-\(total - 1)", total - 1, total - 1),
        ]
        for range in ranges {
            let reply = try server.get(query, headers: [("Range", range.header)])
            #expect(reply.status == 206, "\(range.header): \(reply.text.prefix(200))")
            #expect(reply.header("content-range") == "bytes \(range.first)-\(range.last)/\(total)", "\(range.header)")
            #expect(reply.header("content-length") == String(range.last - range.first + 1), "\(range.header)")
            let sameBytes = reply.body == Array(whole.body[range.first...range.last])
            #expect(sameBytes, "\(range.header)")
        }
    }

    @Test("A WAV whose data has an odd size ends with the pad byte its RIFF size counts, and that byte is a range too")
    func oddSizedWAVEndsWithItsPadByte() throws {
        let server = try InProcessServer()
        // 24-bit mono at 22050 Hz: 3 bytes a frame, and this session has an odd number of frames.
        let session = SessionOptions("1.1-1.3", [("cycles", "1"), ("channels", "1"), ("bits", "24"), ("rate", "22050"), ("cues", "none")])
        let query = "/api/render.wav?" + session.query
        let whole = try server.get(query)
        try #require(whole.status == 200)
        let served = try WAVChunks(whole.body)
        try #require(served.dataDeclaredByteCount % 2 == 1, "the case needs an odd data size")
        #expect(whole.body.count == served.riffDeclaredByteCount + 8, "the body ends where its RIFF size says")
        #expect(whole.header("content-length") == String(whole.body.count))
        #expect(whole.body.count == served.dataOffset + served.dataDeclaredByteCount + 1)
        #expect(whole.body.last == 0)
        // The samples are nagi render's, and its file pads the same way.
        let renderedPath = server.output("odd.wav")
        #expect(try server.nagi(["render"] + session.arguments + ["-o", renderedPath, "--quiet"]).status == 0)
        let rendered = try WAVChunks(Array(try Data(contentsOf: URL(fileURLWithPath: renderedPath))))
        let sameBytes = served.data == rendered.data
        #expect(sameBytes, "the data chunks differ")
        let last = try server.get(query, headers: [("Range", "bytes=-1")])
        #expect(last.status == 206)
        #expect(last.body == [0])
        let tail = try server.get(query, headers: [("Range", "bytes=-7")])
        #expect(tail.status == 206)
        #expect(tail.body == Array(whole.body.suffix(7)))
    }

    @Test("A range outside the WAV is 416 with the file's size; several ranges or another unit too")
    func unsatisfiableRangesAre416() throws {
        let server = try InProcessServer()
        let query = "/api/render.wav?" + SessionOptions("box", [("cycles", "1")]).query
        let whole = try server.request("HEAD", query)
        try #require(whole.status == 200)
        let total = try #require(whole.header("content-length").flatMap { Int($0) })
        for header in ["bytes=\(total)-", "bytes=\(total + 10)-\(total + 20)", "bytes=-0", "bytes=0-1,5-9", "items=0-9", "bytes=abc-"] {
            let reply = try server.get(query, headers: [("Range", header)])
            #expect(reply.status == 416, "\(header)")
            #expect(reply.header("content-range") == "bytes */\(total)", "\(header)")
            #expect(try reply.jsonObject()["error"] is String, "\(header)")
        }
        // The server still renders the whole file afterwards.
        let after = try server.get(query, headers: [("Range", "bytes=0-43")])
        #expect(after.status == 206)
    }

    @Test("Four renders at once, each asked before any is read, all equal nagi render")
    func concurrentRendersAreAllCorrect() throws {
        let server = try InProcessServer(["--jobs", "4"], mode: .live)
        let sessions = (1...4).map { SessionOptions($0 % 2 == 0 ? "box" : "4-7-8", [("cycles", "1"), ("soundscape", "rain"), ("seed", String($0)), ("cues", "none")]) }
        let connections = try sessions.map { session in
            let connection = try server.connect()
            try connection.sendRequest("GET", "/api/render.flac?" + session.query, headers: [("Host", server.host), ("Authorization", "Bearer \(server.token ?? "")"), ("Connection", "close")])
            return connection
        }
        for (session, connection) in zip(sessions, connections) {
            let reply = try connection.readReply()
            #expect(reply.status == 200)
            let servedPath = server.output("served.flac")
            try Data(reply.body).write(to: URL(fileURLWithPath: servedPath))
            let renderedPath = server.output("rendered.flac")
            #expect(try server.nagi(["render"] + session.arguments + ["-o", renderedPath, "--quiet", "--force"]).status == 0)
            let served = try AudioFileReader.readFloat(path: servedPath)
            let rendered = try AudioFileReader.readFloat(path: renderedPath)
            let sameSamples = served == rendered
            #expect(sameSamples, "seed \(session.options[2].value): \(Self.firstDifference(served, rendered))")
        }
    }
}

/// A WAV file's chunks as far as the tests need them: the `fmt ` chunk and the `data` chunk's bytes and offset.
struct WAVChunks {
    var format: [UInt8] = []
    var data: [UInt8] = []
    var dataOffset = 0
    /// The file's bytes as given.
    var bytes: [UInt8]
    /// The RIFF chunk's size as the file gives it.
    var riffDeclaredByteCount = 0
    /// The data chunk's size as its header gives it (more than `data` holds when the bytes are a file's beginning).
    var dataDeclaredByteCount = 0

    init(_ bytes: [UInt8]) throws {
        guard bytes.count >= 12, Array(bytes[0..<4]) == Array("RIFF".utf8), Array(bytes[8..<12]) == Array("WAVE".utf8) else {
            throw HTTPClientError.malformed("not a RIFF WAVE file")
        }
        self.bytes = bytes
        riffDeclaredByteCount = Self.little32(bytes, at: 4)
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = Self.little32(bytes, at: offset + 4)
            let start = offset + 8
            let end = min(bytes.count, start + size)
            if id == "fmt " { format = Array(bytes[start..<end]) }
            if id == "data" {
                data = Array(bytes[start..<end])
                dataOffset = start
                dataDeclaredByteCount = size
            }
            offset = start + size + size % 2
        }
        guard !format.isEmpty, dataOffset > 0 else { throw HTTPClientError.malformed("no fmt or data chunk") }
    }

    private static func little32(_ bytes: [UInt8], at offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }
}
