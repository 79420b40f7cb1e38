import AudioFile
import Foundation
@testable import NagiCLI
@testable import NagiOptions
import NagiKit
import NagiPresets
import Synth
import Testing

/// The guide heard end to end through the binary: the spoken words, the count and the ticks, measured in the
/// rendered sound as the difference between a render with the guide and the same render without it.
@Suite("the spoken guide and the count, measured in the rendered sound")
struct SpokenGuideTests {
    /// A mono float render of `arguments` (file arguments absolute) to `name` in `folder`, in process, as samples.
    static func render(_ arguments: [String], in folder: URL, name: String) throws -> [Float] {
        let result = NagiInProcess.run(["render"] + arguments + ["--channels", "1", "--bits", "float", "-o", folder.appendingPathComponent(name).path, "--quiet", "--force"], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        return try AudioFileReader.readFloat(path: folder.appendingPathComponent(name).path)
    }

    /// `guided` − `plain`, sample by sample: what the guide adds (its sounds and any ducking).
    static func difference(_ guided: [Float], _ plain: [Float]) -> [Float] {
        #expect(guided.count == plain.count)
        return zip(guided, plain).map { $0 - $1 }
    }

    /// Frames where the difference starts after at least `silentFrames` of silence (under −120 dBFS): every
    /// guide sound's first sample (a sound that follows another within 10 ms is not a new onset). A sound must
    /// reach `threshold` (−80 dBFS) within 10 ms of its onset to count, so rounding noise is no onset.
    static func onsets(_ difference: [Float], silentFrames: Int = 480, threshold: Float = 1e-4) -> [Int] {
        let silence: Float = 1e-6
        var result: [Int] = []
        var silentRun = silentFrames
        for (frame, value) in difference.enumerated() {
            if abs(value) < silence {
                silentRun += 1
                continue
            }
            if silentRun >= silentFrames,
               difference[frame..<min(difference.count, frame + silentFrames)].contains(where: { abs($0) >= threshold }) {
                result.append(frame)
            }
            silentRun = 0
        }
        return result
    }

    /// The phrases `describe` lists with their frames.
    static func spokenFrames(_ arguments: [String]) throws -> [(frame: Int, words: String)] {
        let phases = try #require(DescribeTests.describeJSON(arguments)["phases"] as? [[String: Any]])
        return phases.flatMap { phase in
            (phase["speaks"] as? [[String: Any]] ?? []).map { (frame: $0["frame"] as? Int ?? -1, words: $0["words"] as? String ?? "") }
        }
    }

    /// Expects each onset within ±5 ms (240 frames at 48 kHz) of its expected frame and never before it.
    static func expectOnsets(_ found: [Int], at expected: [Int], toleranceFrames: Int = 240, _ label: String) {
        #expect(found.count == expected.count, "\(label): onsets \(found) expected \(expected)")
        for (onset, frame) in zip(found, expected) {
            #expect(onset >= frame && onset - frame <= toleranceFrames, "\(label): onset \(onset) for frame \(frame)")
        }
    }

    @Test("--cues voice: each word's first sample is on its phase's first frame (describe --json), nothing before it")
    func voiceOnsets() throws {
        let folder = try NagiProcess.temporaryFolder()
        let session = ["4-7-8", "--cycles", "2"]
        let plain = try Self.render(session + ["--cues", "none"], in: folder, name: "plain.wav")
        let voiced = try Self.render(session + ["--cues", "voice"], in: folder, name: "voice.wav")
        let spoken = try Self.spokenFrames(session + ["--cues", "voice"])
        #expect(spoken.map(\.words) == ["breathe in", "hold", "breathe out", "breathe in", "hold", "breathe out"])
        let difference = Self.difference(voiced, plain)
        Self.expectOnsets(Self.onsets(difference), at: spoken.map(\.frame), "voice")
        // Nothing of the guide (word or ducking) before the first boundary's word or in the 10 ms before any boundary.
        for (frame, _) in spoken where frame > 0 {
            #expect(difference[(frame - 480)..<frame].allSatisfy { $0 == 0 }, "sound before the boundary at \(frame)")
        }
    }

    @Test("--count voice: the phase word, then two, three, ... on each whole second while 0.8 s remains")
    func countVoice() throws {
        let folder = try NagiProcess.temporaryFolder()
        let session = ["4-7-8", "--cycles", "1"]
        let plain = try Self.render(session + ["--cues", "none"], in: folder, name: "plain.wav")
        let counted = try Self.render(session + ["--cues", "none", "--count", "voice"], in: folder, name: "count.wav")
        let spoken = try Self.spokenFrames(session + ["--cues", "none", "--count", "voice"])
        let words = spoken.map(\.words)
        #expect(words == ["breathe in", "two", "three", "four", "hold", "two", "three", "four", "five", "six", "seven",
                          "breathe out", "two", "three", "four", "five", "six", "seven", "eight"])
        Self.expectOnsets(Self.onsets(Self.difference(counted, plain)), at: spoken.map(\.frame), "count voice")
        // The numbers fall on whole seconds after each boundary (0, 4 s, 11 s at 48 kHz).
        for (frame, word) in spoken where !["breathe in", "hold", "breathe out"].contains(word) {
            let boundary = [0, 192_000, 528_000].last { $0 < frame } ?? 0
            #expect((frame - boundary) % 48_000 == 0, "\(word) at \(frame)")
        }
    }

    @Test("--count ticks: an onset on every whole second of every phase (±5 ms)")
    func ticksOnSeconds() throws {
        let folder = try NagiProcess.temporaryFolder()
        let session = ["box", "--cycles", "1"]
        let plain = try Self.render(session + ["--cues", "none"], in: folder, name: "plain.wav")
        let ticked = try Self.render(session + ["--cues", "none", "--count", "ticks"], in: folder, name: "ticks.wav")
        // Box: four 4 s phases; with no cue the boundary gets a tick too, so every whole second of 16 s ticks.
        let expected = (0..<16).map { $0 * 48_000 }
        Self.expectOnsets(Self.onsets(Self.difference(ticked, plain)), at: expected, "ticks")
    }

    @Test("wim-hof: the round's first breath and its four turning points are spoken, \"round two\" and \"round three\" open the rounds, the quick breaths are silent")
    func wimHofSpeaksWhereItFits() throws {
        let folder = try NagiProcess.temporaryFolder()
        let session = ["wim-hof", "--rate", "16000"]
        let plain = try Self.render(session + ["--cues", "none"], in: folder, name: "plain.wav")
        let voiced = try Self.render(session + ["--cues", "voice"], in: folder, name: "voice.wav")
        let spoken = try Self.spokenFrames(session + ["--cues", "voice"])
        let turns = ["breathe out, hold", "breathe in", "hold", "let go"]
        #expect(spoken.map(\.words) == ["breathe in"] + turns + ["round two"] + turns + ["round three"] + turns)
        Self.expectOnsets(Self.onsets(Self.difference(voiced, plain), silentFrames: 160), at: spoken.map(\.frame), toleranceFrames: 80, "wim-hof")
    }

    @Test("wim-hof --cycles 1: one round, its quick breaths unspoken, its four turning points spoken and heard")
    func wimHofOneRound() throws {
        let folder = try NagiProcess.temporaryFolder()
        let session = ["wim-hof", "--cycles", "1", "--rate", "16000"]
        let plain = try Self.render(session + ["--cues", "none"], in: folder, name: "plain.wav")
        let voiced = try Self.render(session + ["--cues", "voice"], in: folder, name: "voice.wav")
        let spoken = try Self.spokenFrames(session + ["--cues", "voice"])
        #expect(spoken.map(\.words) == ["breathe in", "breathe out, hold", "breathe in", "hold", "let go"])
        Self.expectOnsets(Self.onsets(Self.difference(voiced, plain), silentFrames: 160), at: spoken.map(\.frame), toleranceFrames: 80, "wim-hof, one round")
    }

    @Test("a phase too short for its own words gets none; the next phase still speaks")
    func tooShortPhaseIsSilent() throws {
        let folder = try NagiProcess.temporaryFolder()
        let pattern = #"{"title": "short", "cycles": 1, "phases": [{"kind": "inhale", "seconds": 1.5, "to": 1, "say": "breathe in slowly and deeply through the nose"}, {"kind": "exhale", "seconds": 4, "to": 0}]}"#
        try pattern.write(to: folder.appendingPathComponent("short.json"), atomically: true, encoding: .utf8)
        let short = folder.appendingPathComponent("short.json").path
        let plain = try Self.render([short, "--cues", "none"], in: folder, name: "plain.wav")
        let voiced = try Self.render([short, "--cues", "voice"], in: folder, name: "voice.wav")
        let difference = Self.difference(voiced, plain)
        #expect(difference[0..<72_000].allSatisfy { $0 == 0 }, "the 1.5 s inhale spoke")
        Self.expectOnsets(Self.onsets(difference), at: [72_000], "exhale")
    }

    @Test("plot writes the spoken words under the cue marks; wim-hof's quick breaths carry none")
    func plotWords() throws {
        let plot = NagiInProcess.run(["plot", "4-7-8", "-o", "-", "--quiet"])
        #expect(plot.status == 0, "\(plot.standardError)")
        for (frame, words) in [(0, "breathe in"), (192_000, "hold"), (528_000, "breathe out")] {
            #expect(plot.standardOutput.contains("class=\"cue-words\" data-cue-frame=\"\(frame)\">\(words)</text>"), "\(words)")
        }
        let wimHof = NagiInProcess.run(["plot", "wim-hof", "-o", "-", "--quiet"]).standardOutput
        #expect(wimHof.contains("data-cue-frame=\"0\">breathe in</text>"))
        // The second breath (frame 144000) has a cue mark but no words.
        #expect(wimHof.contains("class=\"cue\" data-cue-frame=\"144000\""))
        #expect(!wimHof.contains("class=\"cue-words\" data-cue-frame=\"144000\""))
    }

    @Test("describe --cues voice --count voice: a speaks column; without them the table keeps its width")
    func describeSpeaksColumn() throws {
        let table = NagiInProcess.run(["describe", "4-7-8", "--cycles", "1", "--cues", "voice", "--count", "voice"]).standardOutput.split(separator: "\n")
        #expect(table[1].hasSuffix("speaks"))
        #expect(table[2].hasSuffix("breathe in, two, three, four"))
        #expect(table[4].hasSuffix("breathe out, two, three, four, five, six, seven, eight"))
        let chimes = NagiInProcess.run(["describe", "4-7-8", "--cycles", "1", "--cues", "chimes"]).standardOutput.split(separator: "\n")
        #expect(chimes[1].hasSuffix("speaks") && !chimes[2].contains("breathe"))
        #expect(NagiInProcess.run(["describe", "4-7-8"]).standardOutput.split(separator: "\n")[1].hasSuffix("length"))
    }

    @Test("play --cues both --count voice through ALSA's file: device equals, frame for frame, what render writes")
    func playEqualsRender() throws {
        let folder = try NagiProcess.temporaryFolder()
        let (captured, expected) = try NagiProcess.playedAndRendered(["4-7-8", "--cycles", "1", "--cues", "both", "--count", "voice", "--bits", "float"], in: folder)
        #expect(captured.count == expected.count)
        #expect(captured == expected)
        // And the guide is in it: the words make the render differ from one without them.
        let plain = NagiInProcess.run(["render", "4-7-8", "--cycles", "1", "--cues", "chimes", "--bits", "float", "-o", folder.appendingPathComponent("plain.wav").path, "--quiet"], home: folder)
        #expect(plain.status == 0)
        #expect(try AudioFileReader.readFloat(path: folder.appendingPathComponent("plain.wav").path) != expected)
    }

    @Test("--cue-volume -6 moves the chimes and the words down by 6 dB (±0.5)", arguments: [["--cues", "chimes"], ["--cues", "voice"], ["--cues", "both", "--count", "voice"]])
    func cueVolumeMovesTheGuide(cues: [String]) throws {
        let folder = try NagiProcess.temporaryFolder()
        let session = ["box", "--cycles", "1"]
        let plain = try Self.render(session + ["--cues", "none"], in: folder, name: "plain.wav")
        let full = Self.difference(try Self.render(session + cues, in: folder, name: "full.wav"), plain)
        let lowered = Self.difference(try Self.render(session + cues + ["--cue-volume", "-6"], in: folder, name: "low.wav"), plain)
        // The first 150 ms after each boundary: the guide sound itself, before the ducking has moved far.
        var fullEnergy = 0.0, loweredEnergy = 0.0
        for boundary in stride(from: 0, to: 4 * 192_000, by: 192_000) {
            for frame in boundary..<(boundary + 7_200) {
                fullEnergy += Double(full[frame] * full[frame])
                loweredEnergy += Double(lowered[frame] * lowered[frame])
            }
        }
        let change = 10 * log10(loweredEnergy / fullEnergy)
        #expect(abs(change + 6) <= 0.5, "\(cues): \(change) dB")
    }

    /// The mean energy of `samples[range]` in 300-3400 Hz (fourth-order Butterworth band-pass, as two biquads
    /// each side), run from the start so the filters have settled.
    static func speechBandEnergy(_ samples: [Float], in range: Range<Int>, sampleRate: Double) -> Double {
        var highPassed = BiquadFilter.highPass(cornerHz: 300, sampleRate: sampleRate).cascade(samples.prefix(range.upperBound).map(Double.init), stages: 2)
        highPassed = BiquadFilter.lowPass(cornerHz: 3_400, sampleRate: sampleRate).cascade(highPassed, stages: 2)
        return highPassed[range].reduce(0) { $0 + $1 * $1 } / Double(range.count)
    }

    static let soundscapes = ["horizon", "night", "dusk", "rain"]

    @Test("spoken words stand at least 6 dB over the mix in the speech band (300-3400 Hz), on every soundscape", arguments: soundscapes)
    func speechStandsClear(soundscape: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let pattern = ["4-7-8", "--cycles", "2"]
        let session = pattern + ["--soundscape", soundscape]
        let plain = try Self.render(session + ["--cues", "none"], in: folder, name: "plain.wav")
        let voiced = try Self.render(session + ["--cues", "voice"], in: folder, name: "voice.wav")
        let word = Self.difference(voiced, plain)
        // Each word's own length, from the clips the command line makes.
        let catalog = PresetEnvironment.catalog()
        let (scape, _) = try SoundscapeResolver.resolve(soundscape, catalog: catalog)
        let schedule = try SessionOptions(ArgumentParser.parse(["describe"] + pattern, for: NagiCommandLine.rootSpec), catalog: catalog).schedule()
        let settings = try Soundtrack.prepare(SoundtrackRequest(schedule: schedule, soundscape: scape, channelCount: 1, guide: .init(cues: .voice))).settings
        var margins: [String] = []
        for (frame, words) in try Self.spokenFrames(pattern + ["--cues", "voice"]) {
            let length = try #require(settings.clips.phrases[words]?.count)
            let range = frame..<(frame + length)
            let margin = 10 * log10(Self.speechBandEnergy(word, in: range, sampleRate: 48_000) / Self.speechBandEnergy(plain, in: range, sampleRate: 48_000))
            margins.append("\(words) \(String(format: "%.1f", margin))")
            #expect(margin >= 6, "\(soundscape): \"\(words)\" at frame \(frame) stands \(margin) dB over the mix")
        }
        print("speech-band margins on \(soundscape): \(margins.joined(separator: ", "))")
    }
}

/// A biquad (RBJ cookbook, Q = 1/√2) for the tests' band measurements.
struct BiquadFilter {
    var b0, b1, b2, a1, a2: Double

    static func highPass(cornerHz: Double, sampleRate: Double) -> BiquadFilter {
        let omega = 2 * Double.pi * cornerHz / sampleRate, alpha = sin(omega) / 2.0.squareRoot(), c = cos(omega), a0 = 1 + alpha
        return BiquadFilter(b0: (1 + c) / 2 / a0, b1: -(1 + c) / a0, b2: (1 + c) / 2 / a0, a1: -2 * c / a0, a2: (1 - alpha) / a0)
    }

    static func lowPass(cornerHz: Double, sampleRate: Double) -> BiquadFilter {
        let omega = 2 * Double.pi * cornerHz / sampleRate, alpha = sin(omega) / 2.0.squareRoot(), c = cos(omega), a0 = 1 + alpha
        return BiquadFilter(b0: (1 - c) / 2 / a0, b1: (1 - c) / a0, b2: (1 - c) / 2 / a0, a1: -2 * c / a0, a2: (1 - alpha) / a0)
    }

    func cascade(_ input: [Double], stages: Int) -> [Double] {
        var signal = input
        for _ in 0..<stages {
            var (x1, x2, y1, y2) = (0.0, 0.0, 0.0, 0.0)
            for index in signal.indices {
                let x0 = signal[index]
                let y0 = b0 * x0 + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
                (x2, x1, y2, y1) = (x1, x0, y1, y0)
                signal[index] = y0
            }
        }
        return signal
    }
}
