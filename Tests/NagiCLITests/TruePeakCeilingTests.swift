import Foundation
import Testing

/// Issue 21's ceiling, as ffmpeg's meter (`ebur128=peak=true`, its own 192 kHz resampling) reads the files:
/// every output at or under −1.0 dBTP whatever pushes it — a soundscape with every gain at its maximum, the guide
/// at +12 dB with voice and counting, a full-scale square-wave bed, a loud bed under a loud target — in every
/// format; and a soundscape whose voices the limiter cannot take down cleanly is refused, naming the field.
@Suite("the true-peak ceiling, measured by ffmpeg", .serialized)
struct TruePeakCeilingTests {
    /// Horizon with every voice's gain at its maximum, the hold swell at 10 and the master gain `master` dB,
    /// written to `folder`: its absolute path.
    static func loudSoundscape(master: Double, in folder: URL) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Presets/soundscapes/horizon.json"))
        guard var soundscape = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              var tone = soundscape["tone"] as? [String: Any], var trail = soundscape["trail"] as? [String: Any],
              var water = soundscape["water"] as? [String: Any], var swell = soundscape["holdSwell"] as? [String: Any],
              var cues = soundscape["cues"] as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        soundscape["masterGainDecibels"] = master
        (tone["gainDecibelsExhaled"], tone["gainDecibelsInhaled"]) = (0, 0)
        (trail["gainDecibelsExhaled"], trail["gainDecibelsInhaled"]) = (0, 0)
        water["gainDecibels"] = 0
        swell["peak"] = 10
        cues["gainDecibels"] = 0
        (soundscape["tone"], soundscape["trail"], soundscape["water"], soundscape["holdSwell"], soundscape["cues"]) = (tone, trail, water, swell, cues)
        soundscape["limiter"] = ["kneeDecibels": -2, "ceilingDecibels": -1]
        let path = folder.appendingPathComponent("loud-\(master).json")
        try JSONSerialization.data(withJSONObject: soundscape).write(to: path)
        return path.path
    }

    /// The master gain at which the loud soundscape's voices need `limiting` dB of limiting, read from the
    /// refusal of the same soundscape at master 0 ("its voices need X dB of limiting …").
    static func masterGain(limiting: Double, in folder: URL) throws -> Double {
        let name = try loudSoundscape(master: 0, in: folder)
        let refused = NagiInProcess.run(["render", "4-7-8", "--cycles", "1", "--soundscape", name, "-o", folder.appendingPathComponent("refused.wav").path], home: folder)
        try #require(refused.status == 65, "\(refused.standardError)")
        let words = refused.standardError.split(separator: " ")
        let index = try #require(words.firstIndex(of: "need"))
        let needed = try #require(Double(words[index + 1]), "\(refused.standardError)")
        return limiting - needed
    }

    @Test("a soundscape too loud for the limiter is refused with 65, naming the field, nothing written")
    func aSoundscapeTooLoudIsRefused() throws {
        let folder = try NagiProcess.temporaryFolder()
        let name = try Self.loudSoundscape(master: 24, in: folder)
        let result = NagiInProcess.run(["render", "4-7-8", "--soundscape", name, "-o", folder.appendingPathComponent("out.wav").path], home: folder)
        #expect(result.status == 65)
        #expect(result.standardError.contains("lower masterGainDecibels"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(!NagiProcess.names(in: folder).contains("out.wav"))
        // Every gain at its maximum with the master gain down: the voices alone (no master boost) name their own field.
        let quieter = NagiInProcess.run(["render", "4-7-8", "--soundscape", try Self.loudSoundscape(master: 0, in: folder), "-o", folder.appendingPathComponent("out.wav").path], home: folder)
        #expect(quieter.status == 65)
        #expect(quieter.standardError.contains("lower holdSwell.peak"), "\(quieter.standardError)")
    }

    @Test("every output at or under -1.0 dBTP by ffmpeg, however it is pushed", arguments: [
        ("loud soundscape", "wav"), ("loud soundscape", "flac"), ("loud soundscape", "ogg"), ("loud soundscape", "opus"), ("loud soundscape", "mp3"),
        ("guide at +12", "wav"), ("guide at +12", "opus"),
        ("square bed", "wav"), ("square bed", "ogg"), ("loud bed at -10 LUFS", "wav"), ("loud bed at -10 LUFS", "mp3"),
        ("countdown and bell at +12, 16 kHz", "wav"),
    ])
    func everyOutputStaysUnderTheCeiling(pushedBy push: String, format: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        var arguments = ["render", "4-7-8", "--cycles", "1", "-o", folder.appendingPathComponent("out.\(format)").path, "--quiet"]
        switch push {
        case "loud soundscape":
            // Every gain at its maximum, the master gain as high as the limiter takes (5.5 of its 6 dB).
            let master = try Self.masterGain(limiting: 5.5, in: folder)
            arguments += ["--soundscape", try Self.loudSoundscape(master: master, in: folder), "--cues", "both"]
        case "guide at +12":
            arguments += ["--cues", "both", "--count", "voice", "--cue-volume", "12"]
        case "countdown and bell at +12, 16 kHz":
            // The lead-in and the ending pass no limiter: their fixed gain alone keeps them under the ceiling.
            arguments += ["--countdown", "3", "--end-bell", "--cues", "both", "--cue-volume", "12", "--loudness", "-10", "--rate", "16000"]
        case "square bed":
            let sox = try Pipeline.run("sox -n -r 48000 -c 2 square.wav synth 20 square 110 gain -0.01", in: folder)
            try #require(sox.status == 0, "\(sox.standardError)")
            arguments += ["--bed", folder.appendingPathComponent("square.wav").path, "--bed-level", "0", "--loudness", "-10"]
        default:
            let sox = try Pipeline.run("sox -n -r 44100 -c 2 pink.wav synth 20 pinknoise gain -n -3", in: folder)
            try #require(sox.status == 0, "\(sox.standardError)")
            arguments += ["--bed", folder.appendingPathComponent("pink.wav").path, "--bed-level", "0", "--loudness", "-10"]
        }
        let result = NagiInProcess.run(arguments, home: folder)
        try #require(result.status == 0, "\(result.standardError)")
        let measured = try LoudnessTargetTests.ffmpeg("out.\(format)", in: folder)
        #expect(measured.truePeak <= -1.0, "\(push), \(format): \(measured.truePeak) dBTP")
        // Pushed hard enough to matter: within 4 dB of the ceiling.
        #expect(measured.truePeak > -5, "\(push), \(format): \(measured.truePeak) dBTP, not pushed")
    }
}
