import AudioFile
import Foundation
import NagiTestSupport
import Testing

/// Files from `/api/render` that open everywhere: a streamed FLAC states its length from the start, and `download=1`
/// answers the finished file, as `nagi render -o FILE` writes it, read back with the standard tools (`metaflac`,
/// `ffprobe`) and libsndfile.
@Suite struct ServeFileTests {
    /// A short session of a few breaths, for every test here.
    static let session = SessionOptions("box", [("cycles", "2"), ("seed", "3")])

    /// `tool arguments`' output, recording a failure when it does not exit 0.
    static func output(of tool: String, _ arguments: [String]) throws -> String {
        let run = try Tool.run(tool, arguments, timeoutSeconds: 60)
        #expect(run.status == 0, "\(tool) \(arguments.joined(separator: " ")): \(run.output)")
        return run.output
    }

    /// The file `nagi render` writes for `session` as `format`, in the server's environment.
    static func renderedByCommandLine(_ server: InProcessServer, _ session: SessionOptions, format: String) throws -> String {
        let path = server.output("rendered.\(format)")
        let run = try server.nagi(["render"] + session.arguments + ["-o", path, "--quiet"])
        #expect(run.status == 0, "\(run.standardError)")
        return path
    }

    @Test("A streamed FLAC states its total samples from its first bytes: metaflac reads them, libsndfile opens the saved stream")
    func streamedFLACStatesItsLength() throws {
        let server = try InProcessServer(mode: .live)
        let reply = try server.get("/api/render.flac?" + Self.session.query)
        #expect(reply.status == 200)
        #expect(reply.header("transfer-encoding")?.lowercased() == "chunked", "a stream, not a finished file")
        let path = server.output("streamed.flac")
        try Data(reply.body).write(to: URL(fileURLWithPath: path))
        let rendered = try Self.renderedByCommandLine(server, Self.session, format: "flac")
        let stated = try Self.output(of: "/usr/bin/metaflac", ["--show-total-samples", path]).trimmingCharacters(in: .whitespacesAndNewlines)
        let expected = try Self.output(of: "/usr/bin/metaflac", ["--show-total-samples", rendered]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(stated == expected, "the stream says \(stated) samples, nagi render's file \(expected)")
        #expect(Int(stated).map { $0 > 0 } == true)
        // libsndfile takes a 0 for 2^63 − 1 frames; with the count it opens the file, and the count is the samples'.
        let stream = try AudioFileStream(path: path)
        #expect(stream.frameCount.map(String.init) == stated)
        let samples = try AudioFileReader.readFloat(path: path)
        #expect(samples == (try AudioFileReader.readFloat(path: rendered)), "the stream's samples are not nagi render's")
    }

    @Test("download=1 FLAC: the finished file, with its total samples, MD5 and tags as nagi render writes them, a Content-Length and a UTF-8 file name")
    func downloadedFLACIsTheFinishedFile() throws {
        let server = try InProcessServer()
        let reply = try server.get("/api/render.flac?download=1&" + Self.session.query)
        #expect(reply.status == 200)
        #expect(reply.header("content-length") == String(reply.body.count))
        #expect(reply.header("content-disposition") == "attachment; filename=\"box.flac\"; filename*=UTF-8''box.flac")
        let path = server.output("downloaded.flac")
        try Data(reply.body).write(to: URL(fileURLWithPath: path))
        let rendered = try Self.renderedByCommandLine(server, Self.session, format: "flac")
        let streamInfo = ["--show-total-samples", "--show-md5sum", "--show-sample-rate", "--show-channels"]
        let served = try Self.output(of: "/usr/bin/metaflac", streamInfo + [path])
        #expect(served == (try Self.output(of: "/usr/bin/metaflac", streamInfo + [rendered])), "\(served)")
        #expect(!served.contains("00000000000000000000000000000000"), "no MD5: \(served)")
        let tags = try Self.output(of: "/usr/bin/metaflac", ["--export-tags-to=-", path])
        #expect(tags == (try Self.output(of: "/usr/bin/metaflac", ["--export-tags-to=-", rendered])))
        #expect(tags.contains("REPLAYGAIN_TRACK_GAIN="), "\(tags)")
        #expect(try Self.output(of: "/usr/bin/flac", ["--test", "--silent", path]).isEmpty)
    }

    @Test("download=1 MP3 carries its Xing/LAME header: ffprobe reads its exact length")
    func downloadedMP3HasItsXingHeader() throws {
        let server = try InProcessServer()
        let reply = try server.get("/api/render.mp3?download=1&" + Self.session.query)
        #expect(reply.status == 200)
        #expect(reply.header("content-length") == String(reply.body.count))
        let path = server.output("downloaded.mp3")
        try Data(reply.body).write(to: URL(fileURLWithPath: path))
        let rendered = try Self.renderedByCommandLine(server, Self.session, format: "wav")
        let seconds = Double(try AudioFileStream(path: rendered).frameCount ?? 0) / 48_000
        // The first frame is the Xing ("Info" for CBR) frame with LAME's tag, which says the frames and the delays.
        let head = Array(reply.body.prefix(64 * 1024))
        #expect(Self.contains(head, "Xing") || Self.contains(head, "Info"), "no Xing header")
        #expect(Self.contains(head, "LAME"), "no LAME tag")
        let probed = try Self.output(of: "/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        let duration = try #require(Double(probed.trimmingCharacters(in: .whitespacesAndNewlines)))
        // LAME's tag lets a decoder drop the encoder's delay and padding: the length within one MP3 frame (24 ms).
        #expect(abs(duration - seconds) < 0.03, "ffprobe says \(duration) s, the session lasts \(seconds) s")
    }

    @Test("download=1 Ogg Vorbis, Opus and WAV: their lengths right as ffprobe and libsndfile read them", arguments: ["ogg", "opus", "wav"])
    func downloadedFilesHaveTheirLengths(format: String) throws {
        let server = try InProcessServer()
        let reply = try server.get("/api/render.\(format)?download=1&" + Self.session.query)
        #expect(reply.status == 200)
        #expect(reply.header("content-length") == String(reply.body.count))
        let path = server.output("downloaded.\(format)")
        try Data(reply.body).write(to: URL(fileURLWithPath: path))
        let rendered = try Self.renderedByCommandLine(server, Self.session, format: format)
        let frames = try AudioFileStream(path: rendered).frameCount ?? 0
        #expect(try AudioFileStream(path: path).frameCount == frames)
        let probe = ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0"]
        let probed = try Self.output(of: "/usr/bin/ffprobe", probe + [path])
        #expect(probed == (try Self.output(of: "/usr/bin/ffprobe", probe + [rendered])), "ffprobe: \(probed)")
        if format == "wav" {
            // The RIFF size is the file's less 8 bytes, as a finished file's is.
            let riff = Int(reply.body[4]) | Int(reply.body[5]) << 8 | Int(reply.body[6]) << 16 | Int(reply.body[7]) << 24
            #expect(riff == reply.body.count - 8)
        }
    }

    @Test("A download's range is a slice of the finished file")
    func downloadRangeIsASlice() throws {
        let server = try InProcessServer()
        let whole = try server.get("/api/render.ogg?download=1&" + Self.session.query)
        let range = try server.get("/api/render.ogg?download=1&" + Self.session.query, headers: [("Range", "bytes=100-4195")])
        #expect(range.status == 206)
        #expect(range.header("content-range") == "bytes 100-4195/\(whole.body.count)")
        let sameBytes = range.body == Array(whole.body[100...4195])
        #expect(sameBytes)
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
