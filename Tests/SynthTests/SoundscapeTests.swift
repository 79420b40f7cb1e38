import NagiBase
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

    @Test func aRuleBetweenTwoFieldsIsAnErrorNamingItsPathWordForWord() throws {
        // Synth's initializers find these; the decoder names them at the JSON path (the messages nagi gave when
        // the decoding lived in Synth).
        let cases: [(original: String, replacement: String, message: String)] = [
            ("\"highFrequencyHz\": 293.66", "\"highFrequencyHz\": 100",
             "horizon.json: $.tone.highFrequencyHz: must not be below lowFrequencyHz (196): the pitch rises with the inhale"),
            ("\"releaseSeconds\": 2.5, \"silenceSeconds\": 0.8", "\"releaseSeconds\": 10, \"silenceSeconds\": 5",
             "horizon.json: $.envelope.silenceSeconds: release + silence must stay under 15 s"),
            ("\"ceilingDecibels\": -1.5", "\"ceilingDecibels\": -7",
             "horizon.json: $.limiter.ceilingDecibels: must be above kneeDecibels (-6)"),
            ("\"fadeOutSeconds\": 0.4", "\"fadeOutSeconds\": 0.9",
             "horizon.json: $.cues.fadeOutSeconds: must be at most half of lengthSeconds (1.6)"),
            ("\"notesHz\": [1174.66, 1567.98], \"noteSpacingSeconds\": 0.12", "\"notesHz\": [1174.66, 1567.98], \"noteSpacingSeconds\": 0.9",
             "horizon.json: $.cues.inhale.noteSpacingSeconds: the last note would start at 0.9 s, past half the chime's 1.6 s"),
            ("\"masterGainDecibels\"", "\"bed\": \"\", \"masterGainDecibels\"",
             "horizon.json: $.bed: expected the path of an audio file"),
        ]
        for (original, replacement, message) in cases {
            let error = try decodingError(replacing: original, with: replacement)
            #expect(error?.message == message)
            #expect(error?.category == .badData)
        }
    }

    @Test func rainsRulesAreNamedAtTheirPathsToo() throws {
        let text = try Fixtures.soundscapeText("rain").replacingOccurrences(of: "\"dropHighHz\": 5000", with: "\"dropHighHz\": 1000")
        #expect(throws: ContentError(file: "rain.json", path: "$.rain.dropHighHz", reason: "must not be below dropLowHz (1800)")) {
            try Soundscape.decode(text: text, file: "rain.json")
        }
    }

    /// The horizon soundscape built field by field through Synth's checked initializers.
    private func horizon(tone: (Soundscape.Tone) throws(SoundscapeError) -> Soundscape.Tone = { $0 }, cues: (Soundscape.Cues) throws(SoundscapeError) -> Soundscape.Cues = { $0 }) throws -> Soundscape {
        let h = try Fixtures.soundscape("horizon")
        return try Soundscape(
            title: h.title, description: h.description, masterGainDecibels: h.masterGainDecibels,
            tone: tone(Soundscape.Tone(
                lowFrequencyHz: h.tone.lowFrequencyHz, highFrequencyHz: h.tone.highFrequencyHz,
                gainDecibelsExhaled: h.tone.gainDecibelsExhaled, gainDecibelsInhaled: h.tone.gainDecibelsInhaled,
                waterHarmonics: h.tone.waterHarmonics, skyHarmonics: h.tone.skyHarmonics, skyExhaled: h.tone.skyExhaled,
                skyInhaled: h.tone.skyInhaled)),
            shimmer: Soundscape.Shimmer(
                amplitudePoints: h.shimmer.amplitudePoints, wavelengthPoints: h.shimmer.wavelengthPoints,
                speedPointsPerSecond: h.shimmer.speedPointsPerSecond, vibratoCentsPerPoint: h.shimmer.vibratoCentsPerPoint,
                tremoloDecibelsPerPoint: h.shimmer.tremoloDecibelsPerPoint),
            trail: Soundscape.Trail(
                pitchRatio: h.trail.pitchRatio, gainDecibelsExhaled: h.trail.gainDecibelsExhaled,
                gainDecibelsInhaled: h.trail.gainDecibelsInhaled, lagSeconds: h.trail.lagSeconds, harmonics: h.trail.harmonics),
            water: Soundscape.Water(
                gainDecibels: h.water.gainDecibels,
                layers: h.water.layers.map { layer throws(SoundscapeError) in
                    try Soundscape.Water.Layer(
                        rateRadiansPerSecond: layer.rateRadiansPerSecond, depthPoints: layer.depthPoints,
                        phaseRadians: layer.phaseRadians, weight: layer.weight)
                },
                levelPerPoint: h.water.levelPerPoint, darkCutoffHz: h.water.darkCutoffHz, brightCutoffHz: h.water.brightCutoffHz,
                brightnessExhaled: h.water.brightnessExhaled, brightnessInhaled: h.water.brightnessInhaled,
                brightnessPerPoint: h.water.brightnessPerPoint, width: h.water.width, loopSeconds: h.water.loopSeconds),
            holdSwell: Soundscape.HoldSwell(peak: h.holdSwell.peak, releaseSeconds: h.holdSwell.releaseSeconds),
            calming: Soundscape.Calming(start: h.calming.start, end: h.calming.end),
            sessionDecayDecibels: h.sessionDecayDecibels,
            envelope: Soundscape.Envelope(
                fadeInSeconds: h.envelope.fadeInSeconds, releaseSeconds: h.envelope.releaseSeconds,
                silenceSeconds: h.envelope.silenceSeconds),
            cues: cues(Soundscape.Cues(
                gainDecibels: h.cues.gainDecibels, attackSeconds: h.cues.attackSeconds, lengthSeconds: h.cues.lengthSeconds,
                fadeOutSeconds: h.cues.fadeOutSeconds, partials: h.cues.partials, inhale: h.cues.inhale, hold: h.cues.hold,
                exhale: h.cues.exhale, stage: h.cues.stage, tick: h.cues.tick, clipGainDecibels: h.cues.clipGainDecibels,
                duckDecibels: h.cues.duckDecibels)),
            rain: h.rain,
            limiter: Soundscape.Limiter(kneeDecibels: h.limiter.kneeDecibels, ceilingDecibels: h.limiter.ceilingDecibels))
    }

    /// One field of a section's table as the test moves it: where it sits in the document, its range, whether a list.
    private struct TableField {
        let path: [Any]
        let range: ClosedRange<Double>
        let isList: Bool
    }

    /// Every field of `section`'s table, at `path` in a document.
    private static func table<Section: SoundscapeSection>(_ section: Section.Type, at path: [Any]) -> [TableField] {
        Section.fields.map { field in
            if case .numbers = field.place { return TableField(path: path + [field.key], range: field.range, isList: true) }
            return TableField(path: path + [field.key], range: field.range, isList: false)
        }
    }

    /// `document` with the value at `path` (keys and array indices) replaced by `value`.
    private static func replacing(_ path: ArraySlice<Any>, in document: Any, with value: Any) -> Any {
        guard let step = path.first else { return value }
        if let key = step as? String, var object = document as? [String: Any], let inner = object[key] {
            object[key] = replacing(path.dropFirst(), in: inner, with: value)
            return object
        }
        if let index = step as? Int, var array = document as? [Any], array.indices.contains(index) {
            array[index] = replacing(path.dropFirst(), in: array[index], with: value)
            return array
        }
        Issue.record("no \(step) in the document")
        return document
    }

    @Test func everyFieldOfEveryTableIsRangeCheckedAtItsPath() throws {
        let fields = Self.table(Soundscape.Tone.self, at: ["tone"]) + Self.table(Soundscape.Shimmer.self, at: ["shimmer"])
            + Self.table(Soundscape.Trail.self, at: ["trail"]) + Self.table(Soundscape.Water.self, at: ["water"])
            + Self.table(Soundscape.Water.Layer.self, at: ["water", "layers", 1]) + Self.table(Soundscape.HoldSwell.self, at: ["holdSwell"])
            + Self.table(Soundscape.Calming.self, at: ["calming"]) + Self.table(Soundscape.Envelope.self, at: ["envelope"])
            + Self.table(Soundscape.Cues.self, at: ["cues"]) + Self.table(Soundscape.Cues.Partial.self, at: ["cues", "partials", 0])
            + Self.table(Soundscape.Cues.Chime.self, at: ["cues", "exhale"]) + Self.table(Soundscape.Cues.Tick.self, at: ["cues", "tick"])
            + Self.table(Soundscape.Limiter.self, at: ["limiter"]) + Self.table(Soundscape.Rain.self, at: ["rain"])
        #expect(fields.count == 67)
        // Rain's own soundscape carries every section, the rain too.
        let document = try JSONSerialization.jsonObject(with: Data(Fixtures.soundscapeText("rain").utf8))
        for field in fields {
            // Just past the top of the range; for a list, its first element.
            let outside = field.range.upperBound + 1
            let changed = Self.replacing(field.path[...], in: document, with: field.isList ? [outside] : outside)
            let text = try #require(String(data: JSONSerialization.data(withJSONObject: changed), encoding: .utf8))
            let path = "$" + field.path.map { $0 is Int ? "[\($0)]" : ".\($0)" }.joined() + (field.isList ? "[0]" : "")
            #expect(throws: ContentError.self, "\(path)") { try Soundscape.decode(text: text, file: "rain.json") }
            do {
                _ = try Soundscape.decode(text: text, file: "rain.json")
            } catch {
                #expect(error.path == path)
                #expect(error.reason.contains("is outside"), "\(error.message)")
            }
        }
    }

    @Test func aSoundscapeBuiltInCodeIsCheckedAsADocumentIs() throws {
        #expect(try horizon() == Fixtures.soundscape("horizon"))
        #expect(throws: SoundscapeError(field: "highFrequencyHz", reason: "must not be below lowFrequencyHz (196): the pitch rises with the inhale")) {
            try horizon(tone: { tone throws(SoundscapeError) in
                try Soundscape.Tone(
                    lowFrequencyHz: tone.lowFrequencyHz, highFrequencyHz: 150, gainDecibelsExhaled: tone.gainDecibelsExhaled,
                    gainDecibelsInhaled: tone.gainDecibelsInhaled, waterHarmonics: tone.waterHarmonics,
                    skyHarmonics: tone.skyHarmonics, skyExhaled: tone.skyExhaled, skyInhaled: tone.skyInhaled)
            })
        }
        #expect(throws: SoundscapeError(field: "waterHarmonics[1]", reason: "1.5 is outside 0...1")) {
            try horizon(tone: { tone throws(SoundscapeError) in
                try Soundscape.Tone(
                    lowFrequencyHz: tone.lowFrequencyHz, highFrequencyHz: tone.highFrequencyHz, gainDecibelsExhaled: tone.gainDecibelsExhaled,
                    gainDecibelsInhaled: tone.gainDecibelsInhaled, waterHarmonics: [1, 1.5], skyHarmonics: tone.skyHarmonics,
                    skyExhaled: tone.skyExhaled, skyInhaled: tone.skyInhaled)
            })
        }
        #expect(throws: SoundscapeError(field: "skyHarmonics", reason: "expected 1 to 4 numbers, found 5")) {
            try horizon(tone: { tone throws(SoundscapeError) in
                try Soundscape.Tone(
                    lowFrequencyHz: tone.lowFrequencyHz, highFrequencyHz: tone.highFrequencyHz, gainDecibelsExhaled: tone.gainDecibelsExhaled,
                    gainDecibelsInhaled: tone.gainDecibelsInhaled, waterHarmonics: tone.waterHarmonics, skyHarmonics: [1, 0, 0, 0, 0],
                    skyExhaled: tone.skyExhaled, skyInhaled: tone.skyInhaled)
            })
        }
        // A chime that fits alone but not in these cues' 1.6 s: the rule is the cues', named at the chime.
        let late = try Soundscape.Cues.Chime(notesHz: [880, 660, 440], noteSpacingSeconds: 0.5, gainDecibels: 0)
        #expect(throws: SoundscapeError(field: "exhale.noteSpacingSeconds", reason: "the last note would start at 1 s, past half the chime's 1.6 s")) {
            try horizon(cues: { cues throws(SoundscapeError) in
                try Soundscape.Cues(
                    gainDecibels: cues.gainDecibels, attackSeconds: cues.attackSeconds, lengthSeconds: cues.lengthSeconds,
                    fadeOutSeconds: cues.fadeOutSeconds, partials: cues.partials, inhale: cues.inhale, hold: cues.hold, exhale: late,
                    stage: cues.stage, tick: cues.tick, clipGainDecibels: cues.clipGainDecibels, duckDecibels: cues.duckDecibels)
            })
        }
        #expect(throws: SoundscapeError(field: "ceilingDecibels", reason: "-0.5 is outside -40...-1")) {
            try Soundscape.Limiter(kneeDecibels: -6, ceilingDecibels: -0.5)
        }
        #expect(throws: SoundscapeError(field: "end", reason: "0 is outside 0.01...1")) { try Soundscape.Calming(start: 1, end: 0) }
        #expect(throws: SoundscapeError(field: "peak", reason: "nan is outside 1...10")) { try Soundscape.HoldSwell(peak: .nan, releaseSeconds: 1) }
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
