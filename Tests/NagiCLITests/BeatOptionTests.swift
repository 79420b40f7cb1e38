import AudioFile
import Foundation
import FoundationXML
import Testing

/// `--beat` and `--beat-style` on the command line and in course files: what is refused and how.
@Suite("--beat: options and refusals")
struct BeatOptionTests {
    /// `PlotTests.plot` in process: plots `arguments` to `plot.svg` in `folder` and parses it.
    static func plotDocument(_ arguments: [String], in folder: URL) throws -> XMLDocument {
        let result = NagiInProcess.run(["plot"] + arguments + ["-o", folder.appendingPathComponent("plot.svg").path], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        return try XMLDocument(data: Data(contentsOf: folder.appendingPathComponent("plot.svg")))
    }

    @Test("bad beats exit 64 with one line naming the fault, and write nothing", arguments: [
        (["--beat", "8", "--channels", "1"], "two channels"),
        (["--beat", "0.2"], "--beat"),
        (["--beat", "41"], "--beat"),
        (["--beat", "8:"], "--beat"),
        (["--beat", "abc"], "--beat"),
        (["--beat-style", "isochronic"], "--beat-style"),
        (["--beat", "8", "--beat-style", "monaural"], "--beat-style"),
        (["--loudness", "-31"], "--loudness"),
        (["--loudness", "-9"], "--loudness"),
    ])
    func refused(arguments: [String], naming: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let result = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", folder.appendingPathComponent("out.wav").path] + arguments, home: folder)
        #expect(result.status == 64, "\(arguments): \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains(naming), "\(result.standardError)")
        #expect(NagiProcess.names(in: folder).isEmpty)
    }

    @Test("play and course next refuse a binaural beat in mono before opening a device")
    func liveRefusal() throws {
        // Refused while the options are read, before any device opens.
        let played = NagiInProcess.run(["play", "box", "--beat", "8", "--channels", "1", "--device", "file:'/dev/null',raw"])
        #expect(played.status == 64, "\(played.standardError)")
        #expect(played.standardError.contains("two channels"))
    }

    @Test("an isochronic beat renders in mono; a binaural one makes the channels differ, without one they are equal in the tone")
    func rendersBothStyles() throws {
        let folder = try NagiProcess.temporaryFolder()
        let mono = NagiInProcess.run(["render", "box", "--cycles", "1", "--channels", "1", "--beat", "10", "--beat-style", "isochronic", "-o", folder.appendingPathComponent("mono.wav").path, "--quiet"], home: folder)
        #expect(mono.status == 0, "\(mono.standardError)")
        #expect(try AudioFileReader.info(path: folder.appendingPathComponent("mono.wav").path).channelCount == 1)
        let plain = NagiInProcess.run(["render", "box", "--cycles", "1", "--bits", "float", "-o", folder.appendingPathComponent("plain.wav").path, "--quiet"], home: folder)
        let beat = NagiInProcess.run(["render", "box", "--cycles", "1", "--bits", "float", "--beat", "10", "-o", folder.appendingPathComponent("beat.wav").path, "--quiet"], home: folder)
        #expect(plain.status == 0 && beat.status == 0)
        // Left minus right: the water's stereo width alone without a beat; with one, the tones' difference too.
        func sideEnergy(_ name: String) throws -> Double {
            let samples = try AudioFileReader.readFloat(path: folder.appendingPathComponent(name).path)
            var energy = 0.0
            for index in stride(from: 0, to: samples.count - 1, by: 2) {
                let side = Double(samples[index]) - Double(samples[index + 1])
                energy += side * side
            }
            return energy
        }
        #expect(try sideEnergy("beat.wav") > 3 * sideEnergy("plain.wav"))
    }

    @Test("plot draws the beat's glide over the whole session; without --beat it draws none")
    func plotDrawsTheBeat() throws {
        let folder = try NagiProcess.temporaryFolder()
        let document = try Self.plotDocument(["coherent", "--minutes", "5", "--beat", "10:6", "--beat-style", "isochronic"], in: folder)
        let beat = try PlotTests.curve(document, "beat")
        #expect(beat.count > 100)
        #expect(abs((beat.first?.1 ?? 0) - 10) < 0.01 && abs((beat.last?.1 ?? 0) - 6) < 0.01, "\(beat.first.map { $0.1 } ?? 0) → \(beat.last.map { $0.1 } ?? 0)")
        #expect(zip(beat, beat.dropFirst()).allSatisfy { $0.1 >= $1.1 })
        let text = try String(contentsOf: folder.appendingPathComponent("plot.svg"), encoding: .utf8)
        #expect(text.contains("isochronic beat 10.0 → 6.0 Hz"))
        let plainFolder = try NagiProcess.temporaryFolder()
        let plain = try Self.plotDocument(["coherent", "--minutes", "5"], in: plainFolder)
        #expect(try plain.nodes(forXPath: "//*[@data-curve='beat']").isEmpty)
    }

    @Test("a course lesson's bad beat or loudness exits 65 naming the file and the field", arguments: [
        (#""beat": 50"#, "beat"), (#""beat": "4:x""#, "beat"), (#""beatStyle": "binaural""#, "beatStyle"),
        (#""beat": 6, "beatStyle": "loud""#, "beatStyle"), (#""loudness": -5"#, "loudness"),
    ])
    func badLesson(field: String, naming: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let course = #"{"name": "c", "title": "C", "lessons": [{"title": "One", "pattern": "box", "minutes": 1, "# + field + "}]}"
        try course.write(to: folder.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        let result = NagiInProcess.run(["course", "export", folder.appendingPathComponent("c.json").path, "-o", folder.appendingPathComponent("album").path, "--quiet"], home: folder)
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("c.json") && result.standardError.contains(naming), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("album").path))
    }
}
