import Synth

/// A soundscape preset read from JSON (`Presets/soundscapes/`): each key names the Synth field it fills
/// (`bedLevel`: `bedLevelDecibels`), each value is checked on the way in (a wrong type, a missing key or an
/// unknown one, a number outside the range Synth gives for it), then by Synth's own initializers (the rules
/// that tie one field to another), each fault named at its JSON path.
extension Soundscape {
    /// The keys a soundscape document may have.
    static let keys = [
        "title", "description", "masterGainDecibels", "tone", "shimmer", "trail", "water", "holdSwell",
        "calming", "sessionDecayDecibels", "envelope", "cues", "rain", "limiter", "bed", "bedLevel",
    ]

    /// Reads a soundscape preset. Every key is required except `rain`, `bed` and `bedLevel`; unknown keys, wrong
    /// types and numbers out of range are errors naming the file and JSON path (`$.tone.lowFrequencyHz`).
    public static func decode(_ value: JSONValue, file: String) throws(ContentError) -> Soundscape {
        let fields = try JSONFields(value, file: file, path: "$")
        try fields.rejectUnknownKeys(allowed: keys)
        let rain: Rain?
        if let rainFields = try fields.object("rain") {
            rain = try rainFields.section(Rain.self)
        } else {
            rain = nil
        }
        let bed = try fields.string("bed")
        let title = try fields.requiredDisplayText("title")
        let description = try fields.requiredDisplayText("description")
        let masterGain = try fields.requiredNumber("masterGainDecibels", in: masterGainRangeDecibels)
        let tone = try fields.requiredObject("tone").section(Tone.self)
        let shimmer = try fields.requiredObject("shimmer").section(Shimmer.self)
        let trail = try fields.requiredObject("trail").section(Trail.self)
        let water = try Water(fields.requiredObject("water"))
        let holdSwell = try fields.requiredObject("holdSwell").section(HoldSwell.self)
        let calming = try fields.requiredObject("calming").section(Calming.self)
        let sessionDecay = try fields.requiredNumber("sessionDecayDecibels", in: sessionDecayRangeDecibels)
        let envelope = try fields.requiredObject("envelope").section(Envelope.self)
        let cues = try Cues(fields.requiredObject("cues"))
        let limiter = try fields.requiredObject("limiter").section(Limiter.self)
        let bedLevel = try fields.number("bedLevel", in: BedMix.levelRange)
        return try fields.checking { () throws(SoundscapeError) in
            try Soundscape(
                title: title, description: description, masterGainDecibels: masterGain, tone: tone, shimmer: shimmer,
                trail: trail, water: water, holdSwell: holdSwell, calming: calming, sessionDecayDecibels: sessionDecay,
                envelope: envelope, cues: cues, rain: rain, limiter: limiter, bed: bed, bedLevelDecibels: bedLevel)
        }
    }

    /// Reads a soundscape preset from JSON text.
    public static func decode(text: String, file: String) throws(ContentError) -> Soundscape {
        try decode(JSONParser.parse(text, file: file), file: file)
    }
}

// Each section's numbers are read and range-checked by its field table (`JSONFields.values(of:)`); what stays
// here is which value fills which argument of Synth's checked initializer, and the nested objects.

extension Soundscape.Tone: DecodableSoundscapeSection {
    init(_ values: SoundscapeValues<Self>) throws(SoundscapeError) {
        try self.init(
            lowFrequencyHz: values[\.lowFrequencyHz], highFrequencyHz: values[\.highFrequencyHz],
            gainDecibelsExhaled: values[\.gainDecibelsExhaled], gainDecibelsInhaled: values[\.gainDecibelsInhaled],
            waterHarmonics: values[\.waterHarmonics], skyHarmonics: values[\.skyHarmonics], skyExhaled: values[\.skyExhaled],
            skyInhaled: values[\.skyInhaled])
    }
}

extension Soundscape.Shimmer: DecodableSoundscapeSection {
    init(_ values: SoundscapeValues<Self>) throws(SoundscapeError) {
        try self.init(
            amplitudePoints: values[\.amplitudePoints], wavelengthPoints: values[\.wavelengthPoints],
            speedPointsPerSecond: values[\.speedPointsPerSecond], vibratoCentsPerPoint: values[\.vibratoCentsPerPoint],
            tremoloDecibelsPerPoint: values[\.tremoloDecibelsPerPoint])
    }
}

extension Soundscape.Trail: DecodableSoundscapeSection {
    init(_ values: SoundscapeValues<Self>) throws(SoundscapeError) {
        try self.init(
            pitchRatio: values[\.pitchRatio], gainDecibelsExhaled: values[\.gainDecibelsExhaled],
            gainDecibelsInhaled: values[\.gainDecibelsInhaled], lagSeconds: values[\.lagSeconds], harmonics: values[\.harmonics])
    }
}

extension Soundscape.Water {
    /// Reads `"water"`: its numbers by the table, its `"layers"` one object each.
    init(_ fields: JSONFields) throws(ContentError) {
        let values = try fields.values(of: Self.self, nested: ["layers"])
        var layers: [Layer] = []
        for layer in try fields.requiredObjects("layers", counts: Self.layerCounts) {
            layers.append(try layer.section(Layer.self))
        }
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(
                gainDecibels: values[\.gainDecibels], layers: layers, levelPerPoint: values[\.levelPerPoint],
                darkCutoffHz: values[\.darkCutoffHz], brightCutoffHz: values[\.brightCutoffHz],
                brightnessExhaled: values[\.brightnessExhaled], brightnessInhaled: values[\.brightnessInhaled],
                brightnessPerPoint: values[\.brightnessPerPoint], width: values[\.width], loopSeconds: values[\.loopSeconds])
        }
    }
}

extension Soundscape.Water.Layer: DecodableSoundscapeSection {
    init(_ values: SoundscapeValues<Self>) throws(SoundscapeError) {
        try self.init(
            rateRadiansPerSecond: values[\.rateRadiansPerSecond], depthPoints: values[\.depthPoints],
            phaseRadians: values[\.phaseRadians], weight: values[\.weight])
    }
}

extension Soundscape.Rain: DecodableSoundscapeSection {
    init(_ values: SoundscapeValues<Self>) throws(SoundscapeError) {
        try self.init(
            gainDecibels: values[\.gainDecibels], lowCutoffHz: values[\.lowCutoffHz], highCutoffHz: values[\.highCutoffHz],
            dropsPerSecond: values[\.dropsPerSecond], dropGainDecibels: values[\.dropGainDecibels], dropLowHz: values[\.dropLowHz],
            dropHighHz: values[\.dropHighHz], dropDecaySeconds: values[\.dropDecaySeconds], width: values[\.width],
            loopSeconds: values[\.loopSeconds])
    }
}

extension Soundscape.HoldSwell: DecodableSoundscapeSection {
    init(_ values: SoundscapeValues<Self>) throws(SoundscapeError) {
        try self.init(peak: values[\.peak], releaseSeconds: values[\.releaseSeconds])
    }
}

extension Soundscape.Calming: DecodableSoundscapeSection {
    init(_ values: SoundscapeValues<Self>) throws(SoundscapeError) {
        try self.init(start: values[\.start], end: values[\.end])
    }
}

extension Soundscape.Envelope: DecodableSoundscapeSection {
    init(_ values: SoundscapeValues<Self>) throws(SoundscapeError) {
        try self.init(fadeInSeconds: values[\.fadeInSeconds], releaseSeconds: values[\.releaseSeconds], silenceSeconds: values[\.silenceSeconds])
    }
}

extension Soundscape.Limiter: DecodableSoundscapeSection {
    init(_ values: SoundscapeValues<Self>) throws(SoundscapeError) {
        try self.init(kneeDecibels: values[\.kneeDecibels], ceilingDecibels: values[\.ceilingDecibels])
    }
}

extension Soundscape.Cues {
    /// Reads `"cues"`: its numbers by the table, its partials, chimes and tick as objects.
    init(_ fields: JSONFields) throws(ContentError) {
        let values = try fields.values(of: Self.self, nested: ["partials", "inhale", "hold", "exhale", "stage", "tick"])
        var partials: [Partial] = []
        for partial in try fields.requiredObjects("partials", counts: Self.partialCounts) {
            partials.append(try partial.section(Partial.self))
        }
        let inhale = try fields.requiredObject("inhale").section(Chime.self)
        let hold = try fields.requiredObject("hold").section(Chime.self)
        let exhale = try fields.requiredObject("exhale").section(Chime.self)
        let stage = try fields.requiredObject("stage").section(Chime.self)
        let tick = try fields.requiredObject("tick").section(Tick.self)
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(
                gainDecibels: values[\.gainDecibels], attackSeconds: values[\.attackSeconds], lengthSeconds: values[\.lengthSeconds],
                fadeOutSeconds: values[\.fadeOutSeconds], partials: partials, inhale: inhale, hold: hold, exhale: exhale,
                stage: stage, tick: tick, clipGainDecibels: values[\.clipGainDecibels], duckDecibels: values[\.duckDecibels])
        }
    }
}

extension Soundscape.Cues.Tick: DecodableSoundscapeSection {
    init(_ values: SoundscapeValues<Self>) throws(SoundscapeError) {
        try self.init(
            highHz: values[\.highHz], lowHz: values[\.lowHz], decaySeconds: values[\.decaySeconds],
            lengthSeconds: values[\.lengthSeconds], gainDecibels: values[\.gainDecibels])
    }
}

extension Soundscape.Cues.Partial: DecodableSoundscapeSection {
    init(_ values: SoundscapeValues<Self>) throws(SoundscapeError) {
        try self.init(ratio: values[\.ratio], amplitude: values[\.amplitude], decaySeconds: values[\.decaySeconds])
    }
}

extension Soundscape.Cues.Chime: DecodableSoundscapeSection {
    /// Builds `"inhale"`, `"hold"`, `"exhale"` or `"stage"` (whether its notes fit the chime's length, `Cues` checks).
    init(_ values: SoundscapeValues<Self>) throws(SoundscapeError) {
        try self.init(notesHz: values[\.notesHz], noteSpacingSeconds: values[\.noteSpacingSeconds], gainDecibels: values[\.gainDecibels])
    }
}
