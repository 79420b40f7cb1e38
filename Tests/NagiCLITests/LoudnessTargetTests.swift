import NagiTestSupport
import AudioFile
import Foundation
import LoudnessReference
import Testing

/// `--loudness` end to end: the written file measured by libebur128 and, independently, by ffmpeg's ebur128
/// filter; the true-peak limit; play applying the same gain as render; a course lesson's own target.
@Suite("--loudness: the output's integrated loudness on target", .serialized)
struct LoudnessTargetTests {
    /// Integrated loudness and true peak by libebur128 over a whole file.
    static func libebur128(_ path: String, channels: Int = 2) throws -> (loudness: Double, truePeak: Double) {
        let samples = try AudioFileReader.readFloat(path: path)
        let meter = try LoudnessMeter(channelCount: channels, sampleRate: 48000)
        try meter.add(samples)
        return (try meter.integratedLoudness(), try meter.truePeak())
    }

    /// Integrated loudness and true peak by ffmpeg's ebur128 filter (its own implementation).
    static func ffmpeg(_ name: String, in folder: URL) throws -> (loudness: Double, truePeak: Double) {
        let summary = try FFmpegLoudness.summary(of: folder.appendingPathComponent(name).path)
        return (summary.integratedLUFS, summary.truePeakDBTP)
    }

    @Test("the render measures the target within 0.5 LU by libebur128 and by ffmpeg, the true peak under -1 dBTP", arguments: [
        ["4-7-8", "--loudness", "-16"],
        ["4-7-8", "--loudness", "-23", "--soundscape", "rain"],
        ["box", "--loudness", "-28", "--channels", "1", "--beat", "6", "--beat-style", "isochronic"],
        ["coherent", "--loudness", "-18", "--beat", "10:4", "--soundscape", "night", "--cues", "none"],
    ])
    func hitsTheTarget(arguments: [String]) throws {
        let folder = try NagiProcess.temporaryFolder()
        let result = NagiInProcess.run(["render"] + arguments + ["--minutes", "2", "-o", folder.appendingPathComponent("out.wav").path, "--quiet"], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        let target = Double(arguments[arguments.firstIndex(of: "--loudness")! + 1])!
        let channels = arguments.contains("1") ? 1 : 2
        let ours = try Self.libebur128(folder.appendingPathComponent("out.wav").path, channels: channels)
        let theirs = try Self.ffmpeg("out.wav", in: folder)
        #expect(abs(ours.loudness - target) <= 0.5, "libebur128: \(ours.loudness) LUFS for \(target)")
        #expect(abs(theirs.loudness - target) <= 0.5, "ffmpeg: \(theirs.loudness) LUFS for \(target)")
        #expect(ours.truePeak <= -1 && theirs.truePeak <= -1, "true peak \(ours.truePeak) / \(theirs.truePeak) dBTP")
        // Without the option the calibrated level stands (about -20 LUFS in stereo; mono and an isochronic beat's
        // pulses sit lower), and it is not already on target by chance.
        let plain = NagiInProcess.run(["render"] + arguments.filter { $0 != "--loudness" && $0 != String(Int(target)) } + ["--minutes", "2", "-o", folder.appendingPathComponent("plain.wav").path, "--quiet"], home: folder)
        #expect(plain.status == 0, "\(plain.standardError)")
        let calibrated = try Self.libebur128(folder.appendingPathComponent("plain.wav").path, channels: channels)
        #expect(abs(calibrated.loudness - target) > 1.5)
    }

    @Test("with a bed under the session the target is hit just the same, by libebur128 and by ffmpeg")
    func hitsTheTargetOverABed() throws {
        let folder = try NagiProcess.temporaryFolder()
        let made = try Pipeline.run("sox -n -r 44100 -c 2 -b 16 bed.flac synth 40 brownnoise vol 0.5", in: folder)
        #expect(made.status == 0, "\(made.standardError)")
        let result = NagiInProcess.run(["render", "4-7-8", "--minutes", "2", "--bed", folder.appendingPathComponent("bed.flac").path, "--bed-level", "-6", "--loudness", "-18", "-o", folder.appendingPathComponent("out.wav").path, "--quiet"], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let ours = try Self.libebur128(folder.appendingPathComponent("out.wav").path)
        let theirs = try Self.ffmpeg("out.wav", in: folder)
        #expect(abs(ours.loudness + 18) <= 0.5 && abs(theirs.loudness + 18) <= 0.5, "libebur128 \(ours.loudness), ffmpeg \(theirs.loudness) LUFS")
        #expect(theirs.truePeak <= -1, "true peak \(theirs.truePeak) dBTP")
        // The bed is in the measured mix: the same render without it at the same target differs sample by sample.
        let plain = NagiInProcess.run(["render", "4-7-8", "--minutes", "2", "--loudness", "-18", "-o", folder.appendingPathComponent("plain.wav").path, "--quiet"], home: folder)
        #expect(plain.status == 0)
        let withBed = try AudioFileReader.readFloat(path: folder.appendingPathComponent("out.wav").path)
        let without = try AudioFileReader.readFloat(path: folder.appendingPathComponent("plain.wav").path)
        #expect(withBed.count == without.count && withBed != without)
    }

    @Test("a target past the true-peak limit is reached as far as -1 dBTP allows, and said so on stderr")
    func unreachableTarget() throws {
        let folder = try NagiProcess.temporaryFolder()
        let result = NagiInProcess.run(["render", "4-7-8", "--minutes", "2", "--loudness", "-10", "-o", folder.appendingPathComponent("loud.wav").path, "--quiet"], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1 && result.standardError.contains("-1 dBTP") && result.standardError.contains("reached"), "\(result.standardError)")
        let ours = try Self.libebur128(folder.appendingPathComponent("loud.wav").path)
        let theirs = try Self.ffmpeg("loud.wav", in: folder)
        #expect(ours.loudness < -11 && ours.loudness > -17, "\(ours.loudness) LUFS")
        #expect(theirs.truePeak <= -1 && ours.truePeak <= -1, "true peak \(ours.truePeak) / \(theirs.truePeak) dBTP")
        // What it said it reached is what the file measures.
        let said = result.standardError.components(separatedBy: "reached ").last.flatMap { Double($0.split(separator: " ").first ?? "") }
        #expect(said.map { abs($0 - ours.loudness) <= 0.2 } == true, "said \(String(describing: said)), measured \(ours.loudness)")
    }

    @Test("MP3, Ogg and Opus: ffmpeg reads the encoded file within 0.5 LU of the target, or of the loudness said to be reached, and under -1 dBTP", arguments: ["mp3", "ogg", "opus"])
    func lossyFilesReachWhatIsSaid(format: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        // A spoken guide 12 dB up puts the peaks past the limiter's knee; a lossy file's limiter sits 1.5 dB lower
        // still (its encoding headroom), which took 1.8 LU off the encoded file without a word when the loudness
        // pass metered the PCM render.
        let name = "out.\(format)"
        let result = NagiInProcess.run(["render", "box", "--cycles", "2", "--cues", "voice", "--cue-volume", "12", "--loudness", "-15", "-o", folder.appendingPathComponent(name).path, "--quiet"], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let measured = try Self.ffmpeg(name, in: folder)
        let said = result.standardError.components(separatedBy: "reached ").dropFirst().first.flatMap { Double($0.split(separator: " ").first ?? "") }
        #expect(abs(measured.loudness - (said ?? -15)) <= 0.5, "ffmpeg: \(measured.loudness) LUFS; said: \(result.standardError)")
        #expect(measured.truePeak <= -1, "true peak \(measured.truePeak) dBTP")
    }

    @Test("play applies the same gain as render: the file: capture equals the render bit for bit")
    func playEqualsRender() throws {
        let folder = try NagiProcess.temporaryFolder()
        let (captured, expected) = try NagiProcess.playedAndRendered(["box", "--cycles", "2", "--bits", "float", "--loudness", "-25", "--beat", "7"], in: folder)
        #expect(captured.count == expected.count)
        #expect(captured == expected)
        let measured = try Self.libebur128(folder.appendingPathComponent("render.wav").path)
        #expect(abs(measured.loudness + 25) <= 0.5, "\(measured.loudness) LUFS")
    }

    @Test("a course lesson sets its own loudness and beat; --loudness on the command line replaces the lesson's")
    func courseLessons() throws {
        let folder = try NagiProcess.temporaryFolder()
        let course = """
        {"name": "quiet", "title": "Quiet", "lessons": [
          {"title": "Low", "pattern": "box", "minutes": 1, "loudness": -26, "beat": "8:4", "beatStyle": "isochronic"},
          {"title": "Plain", "pattern": "4-7-8", "minutes": 1}
        ]}
        """
        try course.write(to: folder.appendingPathComponent("quiet.json"), atomically: true, encoding: .utf8)
        let courseFile = folder.appendingPathComponent("quiet.json").path
        let exported = NagiInProcess.run(["course", "export", courseFile, "-o", folder.appendingPathComponent("album").path, "--format", "wav", "--quiet", "--jobs", "1"], home: folder)
        #expect(exported.status == 0, "\(exported.standardError)")
        let low = try Self.libebur128(folder.appendingPathComponent("album/01 - Low.wav").path)
        let plain = try Self.libebur128(folder.appendingPathComponent("album/02 - Plain.wav").path)
        #expect(abs(low.loudness + 26) <= 0.5, "lesson 1: \(low.loudness) LUFS")
        #expect(abs(plain.loudness + 20) <= 1, "lesson 2: \(plain.loudness) LUFS")
        let overridden = NagiInProcess.run(["course", "export", courseFile, "-o", folder.appendingPathComponent("loud").path, "--format", "wav", "--quiet", "--loudness", "-17"], home: folder)
        #expect(overridden.status == 0, "\(overridden.standardError)")
        for name in ["01 - Low.wav", "02 - Plain.wav"] {
            let measured = try Self.libebur128(folder.appendingPathComponent("loud/\(name)").path)
            #expect(abs(measured.loudness + 17) <= 0.5, "\(name): \(measured.loudness) LUFS")
        }
    }
}
