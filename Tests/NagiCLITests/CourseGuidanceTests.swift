import AudioFile
import Foundation
import NagiTestSupport
import Testing

/// A lesson's own `cues`, `count` and `voice` in course JSON, and the command line's precedence over them.
@Suite("course lessons set their own guidance")
struct CourseGuidanceTests {
    static func writeCourse(_ lessonGuidance: String, in folder: URL) throws -> String {
        let text = #"{"name": "guided", "title": "Guided", "lessons": [{"title": "One", "pattern": "box", "cycles": 1\#(lessonGuidance)}]}"#
        let path = folder.appendingPathComponent("guided.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a bad lesson value exits 65 naming the JSON path and the allowed values", arguments: [
        (#", "cues": "bell""#, "lessons[0].cues"), (#", "count": 3"#, "lessons[0].count"), (#", "voice": "bob""#, "lessons[0].voice"),
    ])
    func badLessonGuidance(guidance: String, path: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let file = try Self.writeCourse(guidance, in: folder)
        let result = NagiInProcess.run(["course", "export", file, "-o", folder.appendingPathComponent("out").path, "--format", "wav", "--quiet"], home: folder)
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains(path), "\(result.standardError)")
        #expect(!NagiProcess.names(in: folder).contains("out"))
    }

    @Test("a lesson's cues voice speaks in course export (the track differs from --cues none), and the export redoes the track when the voice changes")
    func lessonSpeaks() throws {
        let folder = try NagiProcess.temporaryFolder()
        let file = try Self.writeCourse(#", "cues": "voice", "count": "voice""#, in: folder)
        func export(_ extra: [String]) throws -> (samples: [Float], summary: String) {
            let result = NagiInProcess.run(["course", "export", file, "-o", folder.appendingPathComponent("out").path, "--format", "wav", "--bits", "float"] + extra, home: folder)
            #expect(result.status == 0, "\(result.standardError)")
            return (try AudioFileReader.readFloat(path: folder.appendingPathComponent("out/01 - One.wav").path), result.standardError)
        }
        let spoken = try export([])
        #expect(try export([]).summary.contains("already up to date"))
        let otherVoice = try export(["--voice", "rms"])
        #expect(otherVoice.summary.contains("exported 1 track"), "\(otherVoice.summary)")
        #expect(otherVoice.samples != spoken.samples)
        let silent = try export(["--cues", "none", "--count", "none"])
        #expect(silent.samples.count == spoken.samples.count)
        #expect(silent.samples != spoken.samples)
    }

    @Test("course next plays the lesson's own guidance: the capture equals render with the same cues and count")
    func nextUsesLessonGuidance() throws {
        // course next opens ALSA in this process: its pulse hook reads this process's XDG_RUNTIME_DIR, not the run's.
        RuntimeFolder.ensure()
        let folder = try NagiProcess.temporaryFolder()
        let file = try Self.writeCourse(#", "cues": "voice", "count": "voice""#, in: folder)
        let capture = folder.appendingPathComponent("capture.raw").path
        let played = NagiInProcess.run(["course", "next", file, "--bits", "float", "--device", "file:'\(capture)',raw", "--quiet"], home: folder)
        #expect(played.status == 0, "\(played.standardError)")
        let rendered = NagiInProcess.run(["render", "box", "--cycles", "1", "--cues", "voice", "--count", "voice", "--bits", "float", "-o", folder.appendingPathComponent("render.wav").path, "--quiet"], home: folder)
        #expect(rendered.status == 0, "\(rendered.standardError)")
        let expected = try AudioFileReader.readFloat(path: folder.appendingPathComponent("render.wav").path)
        let data = try Data(contentsOf: URL(fileURLWithPath: capture))
        let captured = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(captured == expected)
    }

    @Test("course next plays the lesson's bed, beat and loudness: the capture equals render with the same options")
    func nextUsesLessonSound() throws {
        // course next opens ALSA in this process: its pulse hook reads this process's XDG_RUNTIME_DIR, not the run's.
        RuntimeFolder.ensure()
        let folder = try NagiProcess.temporaryFolder()
        let sox = try Pipeline.run("sox -n -r 44100 -c 2 -b 16 rain.flac synth 20 brownnoise vol 0.5 2>&1", in: folder)
        try #require(sox.status == 0, "\(sox.standardError)")
        let rain = folder.appendingPathComponent("rain.flac").path
        let file = try Self.writeCourse(#", "bed": "\#(rain)", "bedLevel": -6, "beat": "10:6", "beatStyle": "isochronic", "loudness": -16"#, in: folder)
        let capture = folder.appendingPathComponent("capture.raw").path
        let played = NagiInProcess.run(["course", "next", file, "--bits", "float", "--device", "file:'\(capture)',raw", "--quiet"], home: folder)
        #expect(played.status == 0, "\(played.standardError)")
        let options = ["--bed", rain, "--bed-level", "-6", "--beat", "10:6", "--beat-style", "isochronic", "--loudness", "-16"]
        let rendered = NagiInProcess.run(["render", "box", "--cycles", "1", "--bits", "float", "-o", folder.appendingPathComponent("render.wav").path, "--quiet"] + options, home: folder)
        #expect(rendered.status == 0, "\(rendered.standardError)")
        let plain = NagiInProcess.run(["render", "box", "--cycles", "1", "--bits", "float", "-o", folder.appendingPathComponent("plain.wav").path, "--quiet"], home: folder)
        #expect(plain.status == 0, "\(plain.standardError)")
        let expected = try AudioFileReader.readFloat(path: folder.appendingPathComponent("render.wav").path)
        let data = try Data(contentsOf: URL(fileURLWithPath: capture))
        let captured = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(captured == expected)
        // The lesson's sound did change the session: it is not the plain render.
        #expect(try AudioFileReader.readFloat(path: folder.appendingPathComponent("plain.wav").path) != expected)
    }
}
