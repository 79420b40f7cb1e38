import FaultCategory
import Breath
import Foundation
import NagiDocuments
import NagiPresets
import Synth
import Testing

@Suite struct SoundscapeTests {
    /// The repository's Presets/soundscapes folder, found from this file.
    static let presetFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Presets/soundscapes")

    @Test func everyBuiltinSoundscapeDecodesFromTheBinaryAndFromDisk() throws {
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Self.presetFolder.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        #expect(onDisk == SoundscapeChoice.builtinNames.sorted())
        for name in SoundscapeChoice.builtinNames {
            let embedded = try Fixtures.soundscape(name)
            let text = try String(contentsOf: Self.presetFolder.appendingPathComponent("\(name).json"), encoding: .utf8)
            let fromDisk = try Soundscape.decode(text: text, file: "\(name).json")
            #expect(embedded == fromDisk)
            #expect(!embedded.title.isEmpty && !embedded.description.isEmpty)
        }
        #expect(try Fixtures.soundscape("rain").rain != nil)
        #expect(try Fixtures.soundscape("horizon").rain == nil)
    }

    @Test func theDefaultCarriesTheSeedNumbers() throws {
        let horizon = try Fixtures.soundscape("horizon")
        #expect(horizon.water.layers.map(\.rateRadiansPerSecond) == [1.5, 2.3, 3.1])
        #expect(horizon.water.layers.map(\.depthPoints) == [4, 3, 2])
        #expect(horizon.water.layers.map(\.weight) == [0.25, 0.18, 0.12])
        #expect(horizon.water.layers.map(\.phaseRadians) == [0, Double.pi / 3, 2 * Double.pi / 3])
        #expect(horizon.shimmer.amplitudePoints == 5 && horizon.shimmer.wavelengthPoints == 320)
        #expect(horizon.holdSwell.peak == 2.5)
        #expect(horizon.calming.start == 1 && horizon.calming.end == 0.1)
        #expect(horizon.trail.lagSeconds == 0.2)
        #expect(horizon.envelope.silenceSeconds == 0.8)
        #expect(horizon.sessionDecayDecibels >= 3)
    }

    /// Decodes horizon.json with `original` replaced by `replacement` and returns the error.
    private func decodingError(replacing original: String, with replacement: String) throws -> ContentError? {
        let text = try Fixtures.soundscapeText("horizon")
        #expect(text.contains(original), "the fixture text must contain \(original)")
        do {
            _ = try Soundscape.decode(text: text.replacingOccurrences(of: original, with: replacement), file: "horizon.json")
            return nil
        } catch {
            return error
        }
    }

    private func path(of error: ContentError?) -> String? {
        error?.path
    }

    @Test func anUnknownKeyIsAnErrorNamingItsPath() throws {
        let error = try decodingError(replacing: "\"lowFrequencyHz\"", with: "\"lowFrequencyHzz\"")
        #expect(path(of: error) == "$.tone.lowFrequencyHzz")
        #expect(error?.message.contains("did you mean \"lowFrequencyHz\"") == true)
        #expect(error?.category == .badData)
        let topLevel = try decodingError(replacing: "\"masterGainDecibels\"", with: "\"loudness\": 1, \"masterGainDecibels\"")
        #expect(path(of: topLevel) == "$.loudness")
    }

    @Test func aWrongTypeIsAnErrorNamingItsPath() throws {
        let width = try decodingError(replacing: "\"width\": 0.5", with: "\"width\": \"wide\"")
        #expect(path(of: width) == "$.water.width")
        #expect(width?.message.contains("expected a number") == true)
        let layer = try decodingError(replacing: "\"weight\": 0.18", with: "\"weight\": [0.18]")
        #expect(path(of: layer) == "$.water.layers[1].weight")
        let harmonic = try decodingError(replacing: "\"waterHarmonics\": [1, 0.2", with: "\"waterHarmonics\": [1, true")
        #expect(path(of: harmonic) == "$.tone.waterHarmonics[1]")
        let object = try decodingError(
            replacing: "\"holdSwell\": { \"peak\": 2.5, \"releaseSeconds\": 1.5 }", with: "\"holdSwell\": 2.5")
        #expect(path(of: object) == "$.holdSwell")
    }

    @Test func aMissingOrOutOfRangeNumberIsAnErrorNamingItsPath() throws {
        let missing = try decodingError(replacing: "\"sessionDecayDecibels\": 6,", with: "")
        #expect(path(of: missing) == "$.sessionDecayDecibels")
        #expect(missing?.message.contains("missing") == true)
        let silent = try decodingError(replacing: "\"end\": 0.1", with: "\"end\": 0")
        #expect(path(of: silent) == "$.calming.end")
        let falling = try decodingError(replacing: "\"highFrequencyHz\": 293.66", with: "\"highFrequencyHz\": 100")
        #expect(path(of: falling) == "$.tone.highFrequencyHz")
        let longTail = try decodingError(replacing: "\"releaseSeconds\": 2.5, \"silenceSeconds\": 0.8", with: "\"releaseSeconds\": 10, \"silenceSeconds\": 5")
        #expect(path(of: longTail) == "$.envelope.silenceSeconds")
        let loudLimiter = try decodingError(replacing: "\"ceilingDecibels\": -1.5", with: "\"ceilingDecibels\": -0.5")
        #expect(path(of: loudLimiter) == "$.limiter.ceilingDecibels")
    }

    @Test func theSoundscapeFollowsTheHour() {
        #expect(SoundscapeChoice.autoName(hour: 6) == "horizon")
        #expect(SoundscapeChoice.autoName(hour: 12) == "horizon")
        #expect(SoundscapeChoice.autoName(hour: 18) == "horizon")
        #expect(SoundscapeChoice.autoName(hour: 19) == "dusk")
        #expect(SoundscapeChoice.autoName(hour: 20) == "dusk")
        #expect(SoundscapeChoice.autoName(hour: 21) == "night")
        #expect(SoundscapeChoice.autoName(hour: 0) == "night")
        #expect(SoundscapeChoice.autoName(hour: 5) == "night")
        #expect(SoundscapeChoice.builtinNames.contains(SoundscapeChoice.defaultName))
    }
}
