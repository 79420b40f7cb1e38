import AudioFile
import Foundation
import Testing

@Suite("nagi render -o -, labels and plots on standard output")
struct StandardOutputTests {
    /// The render every stream is compared with.
    static let session = ["render", "box", "--cycles", "1"]
    static var sessionText: String { session.joined(separator: " ") }

    /// Renders `session` plus `arguments` to the file `name` in `folder`.
    static func renderFile(_ name: String, _ arguments: [String] = [], in folder: URL) throws -> [Float] {
        let result = try NagiProcess.run(session + arguments + ["-o", name, "--quiet"], in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        return try AudioFileReader.readFloat(path: folder.appendingPathComponent(name).path)
    }

    @Test("-o - into a pipe is WAV with sizes that say unknown, the file render's samples, cues and tags; the summary goes to stderr")
    func wavStream() throws {
        let folder = try NagiProcess.temporaryFolder()
        let run = try Pipeline.run(#""$NAGI" \#(Self.sessionText) -o - 2>nagi.err | cat > stream.wav"#, in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let bytes = try Pipeline.bytes("stream.wav", in: folder)
        #expect(Array(bytes[0..<4]) == Array("RIFF".utf8))
        #expect(Array(bytes[4..<8]) == [0xFF, 0xFF, 0xFF, 0xFF])
        let dataID = try #require(Self.dataChunkOffset(bytes))
        #expect(Array(bytes[(dataID + 4)..<(dataID + 8)]) == [0xFF, 0xFF, 0xFF, 0xFF])
        let errorText = try String(contentsOf: folder.appendingPathComponent("nagi.err"), encoding: .utf8)
        #expect(errorText.contains("wrote standard output"), "\(errorText)")

        let file = try Self.renderFile("file.wav", in: folder)
        let streamPath = folder.appendingPathComponent("stream.wav").path
        #expect(try AudioFileReader.readFloat(path: streamPath) == file)
        // Every sample byte after the header is the file's: 2 bytes a sample.
        #expect(bytes.count - (dataID + 8) == file.count * 2)
        let streamInfo = try AudioFileReader.info(path: streamPath)
        let fileInfo = try AudioFileReader.info(path: folder.appendingPathComponent("file.wav").path)
        #expect(streamInfo.cueFrames == fileInfo.cueFrames && !fileInfo.cueFrames.isEmpty)
        #expect(streamInfo.tags.title == fileInfo.tags.title && fileInfo.tags.title != nil)
    }

    /// Where the `data` chunk starts, found by walking the RIFF chunks after "WAVE" (the `cue ` chunk holds the
    /// word "data" too).
    static func dataChunkOffset(_ bytes: [UInt8]) -> Int? {
        var offset = 12
        while offset + 8 <= bytes.count {
            if Array(bytes[offset..<(offset + 4)]) == Array("data".utf8) { return offset }
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            offset += 8 + size + size % 2
        }
        return nil
    }

    @Test("sox, ffmpeg and Python's wave read the WAV stream from a pipe, sample for sample")
    func readersOfTheStream() throws {
        let folder = try NagiProcess.temporaryFolder()
        let file = try Self.renderFile("file.wav", in: folder)
        let python = "import wave, sys; w = wave.open(sys.stdin.buffer); open('python.txt', 'w').write(f'{w.getnchannels()} {w.getframerate()} {w.getsampwidth()}'); open('python.raw', 'wb').write(w.readframes(w.getnframes()))"
        let script = """
        set -e -o pipefail
        "$NAGI" \(Self.sessionText) -o - --quiet | sox -V1 -t wav - sox.wav
        "$NAGI" \(Self.sessionText) -o - --quiet | ffmpeg -nostdin -loglevel error -f wav -i pipe:0 -f s16le ffmpeg.raw
        "$NAGI" \(Self.sessionText) -o - --quiet | python3 -c "\(python)"
        """
        let run = try Pipeline.run(script, in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try AudioFileReader.readFloat(path: folder.appendingPathComponent("sox.wav").path) == file)
        #expect(Pipeline.floats(fromPCM16: try Pipeline.bytes("ffmpeg.raw", in: folder)) == file)
        #expect(Pipeline.floats(fromPCM16: try Pipeline.bytes("python.raw", in: folder)) == file)
        #expect(try String(contentsOf: folder.appendingPathComponent("python.txt"), encoding: .utf8) == "2 48000 2")
    }

    @Test("--format raw is headerless little-endian PCM in the chosen bits, the file render's samples", arguments: ["16", "24", "float"])
    func rawStream(bits: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let run = try Pipeline.run(#""$NAGI" \#(Self.sessionText) -o - --format raw --bits \#(bits) --quiet | cat > stream.raw"#, in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let bytes = try Pipeline.bytes("stream.raw", in: folder)
        let file = try Self.renderFile("file.wav", ["--bits", bits], in: folder)
        let stream: [Float]
        switch bits {
        case "16":
            stream = Pipeline.floats(fromPCM16: bytes)
        case "24":
            #expect(bytes.count == file.count * 3)
            stream = stride(from: 0, to: bytes.count - 2, by: 3).map { index in
                let word = UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 24
                return Float(Int32(bitPattern: word)) / 2_147_483_648
            }
        default:
            #expect(bytes.count == file.count * 4)
            stream = stride(from: 0, to: bytes.count - 3, by: 4).map { index in
                Float(bitPattern: UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24)
            }
        }
        #expect(stream.count == file.count)
        #expect(stream == file)
    }

    @Test("FLAC streams whole: flac -t passes, total samples 0 (unknown), the FLAC file's samples")
    func flacStream() throws {
        let folder = try NagiProcess.temporaryFolder()
        let run = try Pipeline.run(#""$NAGI" \#(Self.sessionText) -o - --format flac --quiet | cat > stream.flac && flac -s -t stream.flac 2>flac.err && metaflac --show-total-samples stream.flac > total.txt"#, in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let flacErrors = try String(contentsOf: folder.appendingPathComponent("flac.err"), encoding: .utf8)
        #expect(!flacErrors.contains("ERROR"), "\(flacErrors)")
        #expect(try String(contentsOf: folder.appendingPathComponent("total.txt"), encoding: .utf8) == "0\n")
        let file = try Self.renderFile("file.flac", in: folder)
        #expect(try AudioFileReader.readFloat(path: folder.appendingPathComponent("stream.flac").path) == file)
    }

    @Test("ogg, opus and mp3 stream into a pipe and ffprobe reads their whole length", arguments: ["ogg", "opus", "mp3"])
    func lossyStreams(format: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let script = #""$NAGI" \#(Self.sessionText) -o - --format \#(format) --quiet | ffmpeg -nostdin -loglevel error -i pipe:0 -f s16le -ac 2 -ar 48000 decoded.raw"#
        let run = try Pipeline.run(script, in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let decodedFrames = try Pipeline.bytes("decoded.raw", in: folder).count / 4
        let fileFrames = try Self.renderFile("file.wav", in: folder).count / 2
        // Encoders pad by up to a few thousand frames; nothing may be missing.
        #expect(decodedFrames >= fileFrames && decodedFrames < fileFrames + 4800, "\(decodedFrames) vs \(fileFrames)")
    }

    @Test("a reader that closes early (| head -c 1000) ends nagi quietly with 141, in WAV and Ogg", arguments: ["wav", "ogg"])
    func brokenPipe(format: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        // An hour would take minutes to render: ending promptly shows nagi stopped at the closed pipe.
        let script = #""$NAGI" render coherent --minutes 60 -o - --format \#(format) 2>nagi.err | head -c 1000 > head.out; echo "${PIPESTATUS[0]}" > status.txt"#
        let started = Date()
        let run = try Pipeline.run(script, in: folder, timeout: 60)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(try String(contentsOf: folder.appendingPathComponent("status.txt"), encoding: .utf8) == "141\n")
        #expect(try String(contentsOf: folder.appendingPathComponent("nagi.err"), encoding: .utf8) == "")
        #expect(try Pipeline.bytes("head.out", in: folder).count == 1000)
    }

    @Test("audio for a terminal is refused with 64 and one line")
    func terminal() throws {
        let folder = try NagiProcess.temporaryFolder()
        let logs = try NagiProcess.temporaryFolder()
        // script(1) gives nagi a pseudo-terminal as standard output; -e returns nagi's status.
        let run = try Pipeline.run(#"script -qec '"$NAGI" \#(Self.sessionText) -o -' /dev/null > \#(logs.path)/terminal.txt"#, in: folder)
        #expect(run.status == 64, "\(run.standardError)")
        let text = try String(contentsOf: logs.appendingPathComponent("terminal.txt"), encoding: .utf8)
        #expect(text.contains("nagi: error: ") && text.contains("terminal"), "\(text)")
        #expect(text.split(separator: "\n").count == 1, "\(text)")
        #expect(NagiProcess.names(in: folder).isEmpty)
    }

    @Test("--labels - writes the label track to standard output; -o - with --labels - is refused")
    func labelsOnStandardOutput() throws {
        let folder = try NagiProcess.temporaryFolder()
        let piped = NagiInProcess.run(["render", "4-7-8", "--cycles", "2", "-o", folder.appendingPathComponent("x.wav").path, "--labels", "-", "--quiet"], home: folder)
        #expect(piped.status == 0, "\(piped.standardError)")
        let file = NagiInProcess.run(["render", "4-7-8", "--cycles", "2", "-o", folder.appendingPathComponent("y.wav").path, "--labels", folder.appendingPathComponent("y.txt").path, "--quiet"], home: folder)
        #expect(file.status == 0)
        let labels = try String(contentsOf: folder.appendingPathComponent("y.txt"), encoding: .utf8)
        #expect(piped.standardOutput == labels)
        #expect(piped.standardOutput.hasPrefix("0.000000\t4.000000\tinhale\n"))
        #expect(NagiProcess.names(in: folder) == ["x.wav", "y.txt", "y.wav"])

        // Checked before -o - alone is refused in process.
        let both = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", "-", "--labels", "-"], home: try NagiProcess.temporaryFolder())
        #expect(both.status == 64)
        #expect(both.standardError.contains("both name standard output"), "\(both.standardError)")
        #expect(both.standardOutput.isEmpty)
    }

    @Test("plot -o - writes the same SVG to standard output, and nothing else")
    func plotOnStandardOutput() throws {
        let folder = try NagiProcess.temporaryFolder()
        let piped = NagiInProcess.run(["plot", "box", "-o", "-"], home: folder)
        #expect(piped.status == 0, "\(piped.standardError)")
        #expect(NagiProcess.names(in: folder).isEmpty)
        #expect(NagiInProcess.run(["plot", "box", "-o", folder.appendingPathComponent("box.svg").path], home: folder).status == 0)
        let file = try String(contentsOf: folder.appendingPathComponent("box.svg"), encoding: .utf8)
        #expect(piped.standardOutput == file)
        #expect(file.hasPrefix("<?xml"))
    }
}
