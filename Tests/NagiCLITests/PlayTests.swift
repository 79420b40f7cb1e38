import AudioFile
import Foundation
import NagiTestSupport
import Testing

@Suite("nagi play through ALSA, end to end")
struct PlayTests {
    @Test("the file: device captures, bit for bit, what render writes in float", arguments: [["--channels", "2"], ["--channels", "1", "--rate", "44100", "--soundscape", "rain", "--seed", "7"]])
    func captureEqualsRender(extra: [String]) throws {
        let folder = try NagiProcess.temporaryFolder()
        let capture = folder.appendingPathComponent("capture.raw").path
        let played = try NagiProcess.run(["play", "box", "--cycles", "1", "--bits", "float", "--device", "file:'\(capture)',raw", "--quiet"] + extra, in: folder)
        #expect(played.status == 0, "\(played.standardError)")
        #expect(played.standardError.isEmpty)
        let rendered = try NagiProcess.run(["render", "box", "--cycles", "1", "--bits", "float", "-o", "render.wav", "--quiet"] + extra, in: folder)
        #expect(rendered.status == 0, "\(rendered.standardError)")
        let expected = try AudioFileReader.readFloat(path: folder.appendingPathComponent("render.wav").path)
        let data = try Data(contentsOf: URL(fileURLWithPath: capture))
        let captured = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(captured.count == expected.count)
        #expect(captured == expected)
    }

    @Test("in 16-bit the capture is within one step of the render")
    func capture16Bit() throws {
        let folder = try NagiProcess.temporaryFolder()
        let capture = folder.appendingPathComponent("capture.raw").path
        let played = try NagiProcess.run(["play", "4-7-8", "--cycles", "1", "--bits", "16", "--device", "file:'\(capture)',raw", "--quiet"], in: folder)
        #expect(played.status == 0, "\(played.standardError)")
        _ = try NagiProcess.run(["render", "4-7-8", "--cycles", "1", "--bits", "float", "-o", "render.wav", "--quiet"], in: folder)
        let expected = try AudioFileReader.readFloat(path: folder.appendingPathComponent("render.wav").path)
        let data = try Data(contentsOf: URL(fileURLWithPath: capture))
        let captured = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(captured.count == expected.count)
        var worst: Float = 0
        for (sample, reference) in zip(captured, expected) {
            worst = max(worst, abs(Float(sample) - reference * 32767))
        }
        #expect(worst <= 1.0)
    }

    @Test("no sound card: one clear sentence, exit 69, no ALSA noise", arguments: ["default", "nosuchdevice", "hw:7"])
    func noDevice(device: String) throws {
        // No device made true here (a desktop's `default` opens through its sound server): ALSA reads only an
        // empty configuration.
        let configuration = try EmptyALSAConfiguration.make()
        let result = try NagiProcess.run(["play", "box", "--cycles", "1", "--device", device], environment: [EmptyALSAConfiguration.variable: configuration.path])
        #expect(result.status == 69)
        #expect(!result.standardError.contains("ALSA lib"))
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(result.standardError.contains(device))
        #expect(result.standardError.contains("nagi render"))
    }

    @Test("bad live options exit 64 before touching a device")
    func badOptions() throws {
        for arguments in [["--latency", "5"], ["--latency", "abc"], ["--bits", "32"], ["--channels", "3"]] {
            // Refused while the options are read, before any device opens.
            let result = NagiInProcess.run(["play", "box", "--device", "file:'/dev/null',raw"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
        }
    }
}

/// `play` keeps when the session's sound started, for `resonance analyze --start-from-progress`.
@Suite("When a played session started")
struct SessionStartTests {
    @Test("play prints the start (ISO 8601, milliseconds, zone) and records it; it lies within the run")
    func recordsStart() throws {
        let folder = try NagiProcess.temporaryFolder()
        let capture = folder.appendingPathComponent("capture.raw").path
        // alsa-lib reads the test process's environment: its pulse hook wants a runtime folder of its own.
        RuntimeFolder.ensure()
        let before = Date()
        let played = NagiInProcess.run(["play", "4-7-8", "--cycles", "1", "--bits", "16", "--device", "file:'\(capture)',raw"], home: folder)
        let after = Date()
        #expect(played.status == 0, "\(played.standardError)")
        let line = try #require(played.standardError.split(separator: "\n").first { $0.hasPrefix("session started at ") })
        let printed = String(line.dropFirst("session started at ".count))
        #expect(printed.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)/) != nil, "\(printed)")
        let record = try String(contentsOf: folder.appendingPathComponent("state/nagi/sessions/4-7-8.json"), encoding: .utf8)
        #expect(record == "{\"session\":\"4-7-8\",\"startedAt\":\"\(printed)\"}\n")
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let started = try style.parse(printed)
        #expect(started >= before.addingTimeInterval(-1) && started <= after, "\(printed) not within \(before)…\(after)")
    }
}
