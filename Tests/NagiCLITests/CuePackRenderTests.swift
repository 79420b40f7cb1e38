import AudioFile
import Foundation
import Testing

/// `--cue-pack DIR` end to end: each clip a distinct test tone, found in the render on its own phase, cut at the
/// next boundary; broken packs refused with the right exit code and nothing written.
@Suite("your own cue clips, measured in the rendered sound")
struct CuePackRenderTests {
    /// Writes a sine of `frequencyHz` and `amplitude` on `offset` (DC), starting at phase 0 and lasting `seconds`
    /// (rounded to whole frames), to `folder/name` (WAV, 16-bit unless `encoding` says otherwise) through libsndfile:
    /// what `sox -n name synth seconds sine frequencyHz` makes, without starting sox.
    static func writeTone(_ name: String, in folder: URL, frequencyHz: Double, seconds: Double, sampleRate: Int = 44_100, channelCount: Int = 1,
                          amplitude: Double = 0.5, offset: Double = 0, encoding: SampleEncoding = .pcm16) throws {
        let frameCount = Int((seconds * Double(sampleRate)).rounded())
        var samples = [Float](repeating: 0, count: frameCount * channelCount)
        for frame in 0..<frameCount {
            let value = Float(offset + amplitude * sin(2 * Double.pi * frequencyHz * Double(frame) / Double(sampleRate)))
            for channel in 0..<channelCount { samples[frame * channelCount + channel] = value }
        }
        let spec = AudioFileSpec(sampleRate: sampleRate, channelCount: channelCount, format: .wav, encoding: encoding)
        let writer = try AudioFileWriter(path: folder.appendingPathComponent(name).path, spec: spec, overwrite: true)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.commit()
    }

    /// Writes `seconds` of pink noise, each channel its own, its peak at `peak`, to `folder/name` (the format from
    /// the name's extension) through libsndfile: white noise from `seed` (SplitMix64) through Paul Kellet's economy
    /// pink filter. For tests that need a noise bed, not one particular noise, without starting sox (whose
    /// `synth pinknoise` is seeded afresh on every run).
    static func writePinkNoise(_ name: String, in folder: URL, seconds: Double, sampleRate: Int = 44_100, channelCount: Int = 1,
                               peak: Double, encoding: SampleEncoding = .pcm16, seed: UInt64 = 1) throws {
        let frameCount = Int((seconds * Double(sampleRate)).rounded())
        var state = seed
        func white() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            value ^= value >> 31
            return Double(value >> 11) / Double(1 << 53) * 2 - 1
        }
        var samples = [Double](repeating: 0, count: frameCount * channelCount)
        for channel in 0..<channelCount {
            var (b0, b1, b2) = (0.0, 0.0, 0.0)
            for frame in 0..<frameCount {
                let input = white()
                b0 = 0.99765 * b0 + input * 0.0990460
                b1 = 0.96300 * b1 + input * 0.2965164
                b2 = 0.57000 * b2 + input * 1.0526913
                samples[frame * channelCount + channel] = b0 + b1 + b2 + input * 0.1848
            }
        }
        let scale = peak / max(samples.map(abs).max() ?? 1, .leastNormalMagnitude)
        let format = try #require(AudioFileFormat(fileExtension: String(name.split(separator: ".").last ?? "")))
        let writer = try AudioFileWriter(path: folder.appendingPathComponent(name).path, spec: AudioFileSpec(sampleRate: sampleRate, channelCount: channelCount, format: format, encoding: encoding), overwrite: true)
        try samples.map { Float($0 * scale) }.withUnsafeBufferPointer { try writer.write($0) }
        try writer.commit()
    }

    /// The power of `frequencyHz` in `samples[range]` (Hann-windowed Goertzel), dB.
    static func toneLevel(_ samples: [Float], _ range: Range<Int>, frequencyHz: Double, sampleRate: Double = 48_000) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequencyHz / sampleRate)
        var (previous, beforePrevious) = (0.0, 0.0)
        for (offset, frame) in range.enumerated() {
            let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(offset) / Double(range.count - 1))
            let current = Double(samples[frame]) * window + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return 10 * log10(max(power, 1e-30))
    }

    static let tones: [(slot: String, frequencyHz: Double)] = [("inhale", 500), ("hold", 700), ("exhale", 1_100), ("hold-out", 1_500)]

    @Test("each phase plays its own clip from its first frame, cut at the next boundary; without hold-out.* a hold after an exhale plays hold.*", arguments: [true, false])
    func rightClipOnRightPhase(withHoldOut: Bool) throws {
        let folder = try NagiProcess.temporaryFolder()
        let pack = folder.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        // 6 s clips on 4 s phases: each must be cut at the next boundary. Stereo and 44.1 kHz for the exhale.
        for (slot, frequency) in Self.tones where withHoldOut || slot != "hold-out" {
            try Self.writeTone(slot + ".wav", in: pack, frequencyHz: frequency, seconds: 6, channelCount: slot == "exhale" ? 2 : 1)
        }
        let session = ["box", "--cycles", "1"]
        let plain = try SpokenGuideTests.render(session + ["--cues", "none"], in: folder, name: "plain.wav")
        let packed = try SpokenGuideTests.render(session + ["--cue-pack", pack.path], in: folder, name: "pack.wav")
        let clips = SpokenGuideTests.difference(packed, plain)
        SpokenGuideTests.expectOnsets(SpokenGuideTests.onsets(clips), at: [0], "pack")
        let expected = ["inhale", "hold", "exhale", withHoldOut ? "hold-out" : "hold"]
        for (index, slot) in expected.enumerated() {
            let start = index * 192_000
            let head = start + 960..<start + 14_400
            let levels = Self.tones.map { (slot: $0.slot, level: Self.toneLevel(clips, head, frequencyHz: $0.frequencyHz)) }
            let own = try #require(levels.first { $0.slot == slot }).level
            for other in levels where other.slot != slot {
                #expect(own - other.level >= 20, "phase \(index): \(slot) \(own) dB vs \(other.slot) \(other.level) dB")
            }
            // The other tones' level here is the beds' dip under the clip (broadband), ~29 dB under the clip's tone.
            // Cut at the next boundary with a short fade: 15 ms on, its tone is 50 dB down (the next clip sounds).
            guard index < 3 else { continue }
            let frequency = try #require(Self.tones.first { $0.slot == slot }).frequencyHz
            let before = Self.toneLevel(clips, start + 192_000 - 9_600..<start + 192_000, frequencyHz: frequency)
            let after = Self.toneLevel(clips, start + 192_000 + 720..<start + 192_000 + 10_320, frequencyHz: frequency)
            if expected[index + 1] != slot {
                #expect(before - after >= 50, "phase \(index): \(slot) rings on past its boundary: \(before) -> \(after) dB")
            }
        }
    }

    struct BrokenPack: CustomTestStringConvertible, Sendable {
        var label: String
        var status: Int32
        var mentions: [String]
        var testDescription: String { label }
    }

    static let brokenPacks = [
        BrokenPack(label: "missing exhale", status: 66, mentions: ["exhale.*"]),
        BrokenPack(label: "exhale is text", status: 65, mentions: ["exhale.wav", "is not audio libsndfile reads: "]),
        BrokenPack(label: "exhale lasts 31 s", status: 65, mentions: ["exhale.wav", "longer than 30 s"]),
    ]

    @Test("a broken pack: one line naming the file, the sysexits code, nothing written", arguments: brokenPacks)
    func brokenPackRefused(testCase: BrokenPack) throws {
        let folder = try NagiProcess.temporaryFolder()
        let pack = folder.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        try Self.writeTone("inhale.wav", in: pack, frequencyHz: 500, seconds: 1)
        try Self.writeTone("hold.wav", in: pack, frequencyHz: 700, seconds: 1)
        switch testCase.label {
        case "exhale is text": try "not a sound".write(to: pack.appendingPathComponent("exhale.wav"), atomically: true, encoding: .utf8)
        case "exhale lasts 31 s": try Self.writeTone("exhale.wav", in: pack, frequencyHz: 1_100, seconds: 31, sampleRate: 8_000)
        default: break
        }
        let result = NagiInProcess.run(["render", "box", "--cycles", "1", "--cue-pack", pack.path, "-o", folder.appendingPathComponent("out.wav").path], home: folder)
        #expect(result.status == testCase.status, "\(result.standardError)")
        for text in testCase.mentions {
            #expect(result.standardError.contains(text), "\(result.standardError)")
        }
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(NagiProcess.names(in: folder) == ["pack"])
    }
}
