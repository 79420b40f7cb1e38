import Foundation
import Testing

/// How each spoken word enters the mix, measured in the rendered sound: the difference between a render with the
/// voice and the same render without it must rise into each word, not step (a step is a click in headphones).
@Suite("spoken words enter without a click, measured in the rendered sound")
struct WordOnsetTests {
    /// The largest magnitude in the first 0.25 ms of each word's onset over the word's own peak 5–25 ms later,
    /// for every word `describe` places that is heard (its peak above −80 dBFS), in the difference `guided` −
    /// `plain` at `sampleRate`; with the frame of the worst.
    static func worstOnsetStep(_ guided: [String], plain: [String], sampleRate: Int) throws -> (ratio: Double, frame: Int, heard: Int, placed: Int) {
        let folder = try NagiProcess.temporaryFolder()
        let difference = SpokenGuideTests.difference(
            try SpokenGuideTests.render(guided, in: folder, name: "guided.wav"),
            try SpokenGuideTests.render(plain, in: folder, name: "plain.wav"))
        // describe places the words where render does, whatever the soundscape (which it does not take).
        var placing = guided
        if let index = placing.firstIndex(of: "--soundscape") { placing.removeSubrange(index...(index + 1)) }
        let frames = try SpokenGuideTests.spokenFrames(placing).map(\.frame)
        let rate = Double(sampleRate)
        let firstFrames = max(1, Int(0.000_25 * rate))
        let peakRange = Int(0.005 * rate)..<Int(0.025 * rate)
        var worst = (ratio: 0.0, frame: -1)
        var heard = 0
        for frame in frames where frame + peakRange.upperBound <= difference.count {
            let first = difference[frame..<(frame + firstFrames)].reduce(Float(0)) { max($0, abs($1)) }
            let peak = difference[(frame + peakRange.lowerBound)..<(frame + peakRange.upperBound)].reduce(Float(0)) { max($0, abs($1)) }
            guard peak > 1e-4 else { continue }
            heard += 1
            let ratio = Double(first / peak)
            if ratio > worst.ratio { worst = (ratio, frame) }
        }
        return (worst.ratio, worst.frame, heard, frames.count)
    }

    /// A render's arguments: a session, a soundscape and what speaks.
    struct Case: CustomTestStringConvertible, Sendable {
        var session: [String]
        var voice: [String]
        var sampleRate = 48_000
        var testDescription: String { (session + voice).joined(separator: " ") }
    }

    static let cases: [Case] = {
        // Every preset, one cycle (Wim Hof one round, at 16 kHz to keep it short; the ramp and the steps their
        // own shortest), with the voice cue on the default soundscape.
        let presets: [Case] = [
            Case(session: ["4-7-8", "--cycles", "1"], voice: ["--cues", "voice"]),
            Case(session: ["box", "--cycles", "1"], voice: ["--cues", "voice"]),
            Case(session: ["coherent", "--cycles", "2"], voice: ["--cues", "voice"]),
            Case(session: ["sigh", "--cycles", "2"], voice: ["--cues", "voice"]),
            Case(session: ["extended-exhale", "--cycles", "1"], voice: ["--cues", "voice"]),
            Case(session: ["triangle", "--cycles", "1"], voice: ["--cues", "voice"]),
            Case(session: ["resonant-6bpm", "--cycles", "1"], voice: ["--cues", "voice"]),
            Case(session: ["wim-hof", "--cycles", "2", "--rate", "16000"], voice: ["--cues", "voice"], sampleRate: 16_000),
            Case(session: ["longer-exhale-ramp", "--cycles", "2"], voice: ["--cues", "voice"]),
            Case(session: ["resonance-steps", "--rate", "16000"], voice: ["--cues", "voice"], sampleRate: 16_000),
        ]
        // Every soundscape, the words and the counted seconds.
        let soundscapes = SpokenGuideTests.soundscapes.flatMap { name in
            [Case(session: ["4-7-8", "--cycles", "1", "--soundscape", name], voice: ["--cues", "voice"]),
             Case(session: ["box", "--cycles", "1", "--soundscape", name], voice: ["--cues", "none", "--count", "voice"])]
        }
        return presets + soundscapes
    }()

    @Test("each word's first 0.25 ms reaches at most 25 % of its peak 5–25 ms later", arguments: cases)
    func wordsRiseIn(_ test: Case) throws {
        let plain = test.session + ["--cues", "none"]
        let result = try Self.worstOnsetStep(test.session + test.voice, plain: plain, sampleRate: test.sampleRate)
        // Most placed words are heard (a word too long for its phase is left out), so the figure covers them.
        #expect(result.heard >= 2 && result.heard * 2 >= result.placed, "\(test.testDescription): \(result.heard) of \(result.placed) words heard")
        #expect(result.ratio <= 0.25, "\(test.testDescription): the word at frame \(result.frame) starts at \(Int((result.ratio * 100).rounded())) % of its peak")
        print("onset step \(test.testDescription): worst \(String(format: "%.4f", result.ratio)) at frame \(result.frame), \(result.heard) of \(result.placed) words")
    }
}
