import AudioFile
import Foundation
import Testing

/// The get-ready countdown and the end bell, heard in the rendered file (read back through libsndfile) against the
/// same render without them.
@Suite("--countdown and --end-bell, measured in the rendered sound")
struct CountdownTests {
    /// Renders `arguments` in process as `SpokenGuideTests.render` does in a process of its own (mono 32-bit float
    /// samples, `--force`) to `name` in `folder`, and reads the samples back.
    static func renderInProcess(_ arguments: [String], in folder: URL, name: String) throws -> [Float] {
        let path = folder.appendingPathComponent(name).path
        let result = NagiInProcess.run(["render"] + arguments + ["--channels", "1", "--bits", "float", "-o", path, "--quiet", "--force"], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        return try AudioFileReader.readFloat(path: path)
    }

    @Test("--countdown 3 --cues voice: \"three\", \"two\", \"one\" on the whole seconds before the first inhale; the breathing is the plain render's, moved by the lead-in, sample for sample; the bell after the release")
    func countdownAndBell() throws {
        let folder = try NagiProcess.temporaryFolder()
        let rate = 48000
        let session = ["box", "--cycles", "1", "--cues", "voice"]
        let plain = try Self.renderInProcess(session, in: folder, name: "plain.wav")
        let framed = try Self.renderInProcess(session + ["--countdown", "3", "--end-bell"], in: folder, name: "framed.wav")

        // describe places the lead-in and every boundary; each boundary moves by exactly the lead-in's frames.
        let described = try DescribeTests.describeJSON(session + ["--countdown", "3", "--end-bell"])
        let before = try #require(described["before"] as? [String: Any])
        let leadIn = try #require(before["endFrame"] as? Int)
        #expect(leadIn == 5 * rate, "get ready (2 s) and three seconds")
        let sounds = try #require(before["sounds"] as? [[String: Any]])
        #expect(sounds.map { $0["words"] as? String ?? "" } == ["get ready", "three", "two", "one"])
        let plainPhases = try #require(DescribeTests.describeJSON(session)["phases"] as? [[String: Any]])
        let framedPhases = try #require(described["phases"] as? [[String: Any]])
        #expect(framedPhases.map { ($0["startFrame"] as? Int ?? -1) - leadIn } == plainPhases.map { $0["startFrame"] as? Int ?? -2 })
        #expect(framed.count == (described["renderFrames"] as? Int ?? -1))
        // The WAV's cue points (read back through libsndfile; they are its chapters) move with the boundaries, and
        // an "Opening" chapter covers the lead-in.
        let plainCues = try AudioFileReader.info(path: folder.appendingPathComponent("plain.wav").path).cueFrames
        let framedCues = try AudioFileReader.info(path: folder.appendingPathComponent("framed.wav").path).cueFrames
        #expect(!plainCues.isEmpty && framedCues == [0] + plainCues.map { $0 + Int64(leadIn) })

        // The lead-in holds nothing but the words: their onsets, read from the audio, within 5 ms of their frames,
        // "three" 3 s before the first inhale, "two" 2 s, "one" 1 s.
        let expected = [0, leadIn - 3 * rate, leadIn - 2 * rate, leadIn - rate]
        #expect(sounds.map { $0["frame"] as? Int ?? -1 } == expected)
        SpokenGuideTests.expectOnsets(SpokenGuideTests.onsets(Array(framed[0..<leadIn])), at: expected, "countdown")
        #expect(framed[(leadIn - rate / 4)..<leadIn].allSatisfy { $0 == 0 }, "the count is over before the first inhale")

        // The breathing: the plain render up to its closing silence, sample for sample, one lead-in later.
        let silenceFrames = Int(0.8 * Double(rate))
        let releaseEnd = plain.count - silenceFrames
        #expect(plain[releaseEnd...].allSatisfy { $0 == 0 })
        #expect(Array(framed[leadIn..<(leadIn + releaseEnd)]) == Array(plain[0..<releaseEnd]))

        // The ending: the bell from the release's end, "the session is complete" 1 s later, then 4 s after the bell
        // the closing silence.
        let after = try #require(described["after"] as? [String: Any])
        #expect(after["startFrame"] as? Int == leadIn + releaseEnd)
        let ending = Array(framed[(leadIn + releaseEnd)...])
        #expect(ending.count == 4 * rate + silenceFrames)
        SpokenGuideTests.expectOnsets(Array(SpokenGuideTests.onsets(ending).prefix(1)), at: [0], "bell")
        let wordsStart = rate
        let bellOnly = ending[(wordsStart - rate / 4)..<wordsStart].map { abs($0) }.max() ?? 0
        let withWords = ending[wordsStart..<(wordsStart + rate / 2)].map { abs($0) }.max() ?? 0
        #expect(withWords > 4 * bellOnly, "the words come in over the bell's ring: \(withWords) against \(bellOnly)")
        #expect(ending[(4 * rate)...].allSatisfy { $0 == 0 }, "the closing silence")
    }

    @Test("a soundscape whose chimes ring 5 s: the ending lasts until the bell has died away, and the closing silence is silent")
    func aLongBellFitsTheEnding() throws {
        let folder = try NagiProcess.temporaryFolder()
        let rate = 48000
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Presets/soundscapes/horizon.json"))
        var soundscape = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var cues = try #require(soundscape["cues"] as? [String: Any])
        cues["lengthSeconds"] = 5
        soundscape["cues"] = cues
        try JSONSerialization.data(withJSONObject: soundscape).write(to: folder.appendingPathComponent("long-bell.json"))
        let session = ["box", "--cycles", "1", "--cues", "chimes", "--soundscape", folder.appendingPathComponent("long-bell.json").path]
        let plain = try Self.renderInProcess(session, in: folder, name: "plain.wav")
        let framed = try Self.renderInProcess(session + ["--end-bell"], in: folder, name: "framed.wav")
        let silenceFrames = Int(0.8 * Double(rate))
        let releaseEnd = plain.count - silenceFrames
        let ending = Array(framed[releaseEnd...])
        #expect(ending.count == 5 * rate + silenceFrames, "\(ending.count) frames")
        // Still ringing in its fifth second (not cut at four), silent once the closing silence begins.
        let fifthSecond = ending[(4 * rate)..<(4 * rate + rate / 2)].map { abs($0) }.max() ?? 0
        #expect(fifthSecond > 0, "the bell rings past 4 s")
        #expect(ending[(5 * rate)...].allSatisfy { $0 == 0 }, "the closing silence")
    }

    @Test("plot --countdown 5 --end-bell shades the lead-in (7 s with the voice's get-ready) and the ending (4.8 s) in the overview; without them neither is drawn")
    func plotShadesOutside() throws {
        let folder = try NagiProcess.temporaryFolder()
        // The plot goes to a file (an in-process run has no standard output to write one to): the drawing is the point.
        func widths(_ arguments: [String]) throws -> [String: Double] {
            let path = folder.appendingPathComponent("plot.svg").path
            let result = NagiInProcess.run(["plot", "box", "--minutes", "1"] + arguments + ["-o", path, "--quiet", "--force"], home: folder)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
            let svg = try String(contentsOfFile: path, encoding: .utf8)
            var found: [String: Double] = [:]
            for kind in ["lead-in", "ending"] {
                guard let tag = svg.components(separatedBy: "<rect ").first(where: { $0.contains("data-kind=\"\(kind)\"") }),
                      let width = tag.components(separatedBy: "width=\"").dropFirst().first?.split(separator: "\"").first.flatMap({ Double($0) }) else { continue }
                found[kind] = width
            }
            return found
        }
        #expect(try widths([]).isEmpty)
        let shaded = try widths(["--countdown", "5", "--end-bell"])
        let leadIn = try #require(shaded["lead-in"])
        let ending = try #require(shaded["ending"])
        #expect(abs(leadIn / ending - 7 / 4.8) < 0.01, "\(leadIn) px against \(ending) px")
    }

    @Test("play --countdown 2 --cues voice --end-bell through ALSA's file: device captures what render writes, frame for frame")
    func playEqualsRender() throws {
        let folder = try NagiProcess.temporaryFolder()
        let (captured, expected) = try NagiProcess.playedAndRendered(["4-4", "--cycles", "1", "--cues", "voice", "--countdown", "2", "--end-bell", "--bits", "float"], in: folder)
        #expect(captured.count == expected.count && captured.count > 0)
        #expect(captured == expected)
    }
}
