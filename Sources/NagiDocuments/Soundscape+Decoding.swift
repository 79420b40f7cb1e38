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
            rain = try Rain(rainFields)
        } else {
            rain = nil
        }
        let bed = try fields.string("bed")
        let title = try fields.requiredDisplayText("title")
        let description = try fields.requiredDisplayText("description")
        let masterGain = try fields.requiredNumber("masterGainDecibels", in: masterGainRangeDecibels)
        let tone = try Tone(fields.requiredObject("tone"))
        let shimmer = try Shimmer(fields.requiredObject("shimmer"))
        let trail = try Trail(fields.requiredObject("trail"))
        let water = try Water(fields.requiredObject("water"))
        let holdSwell = try HoldSwell(fields.requiredObject("holdSwell"))
        let calming = try Calming(fields.requiredObject("calming"))
        let sessionDecay = try fields.requiredNumber("sessionDecayDecibels", in: sessionDecayRangeDecibels)
        let envelope = try Envelope(fields.requiredObject("envelope"))
        let cues = try Cues(fields.requiredObject("cues"))
        let limiter = try Limiter(fields.requiredObject("limiter"))
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

extension Soundscape.Tone {
    /// Reads `"tone"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: [
            "lowFrequencyHz", "highFrequencyHz", "gainDecibelsExhaled", "gainDecibelsInhaled",
            "waterHarmonics", "skyHarmonics", "skyExhaled", "skyInhaled",
        ])
        let low = try fields.requiredNumber("lowFrequencyHz", in: Self.frequencyRangeHz)
        let high = try fields.requiredNumber("highFrequencyHz", in: Self.frequencyRangeHz)
        let exhaledGain = try fields.requiredNumber("gainDecibelsExhaled", in: Self.gainRangeDecibels)
        let inhaledGain = try fields.requiredNumber("gainDecibelsInhaled", in: Self.gainRangeDecibels)
        let water = try fields.requiredNumbers("waterHarmonics", in: Self.shareRange, counts: 1...Self.maximumHarmonics)
        let sky = try fields.requiredNumbers("skyHarmonics", in: Self.shareRange, counts: 1...Self.maximumHarmonics)
        let skyExhaled = try fields.requiredNumber("skyExhaled", in: Self.shareRange)
        let skyInhaled = try fields.requiredNumber("skyInhaled", in: Self.shareRange)
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(
                lowFrequencyHz: low, highFrequencyHz: high, gainDecibelsExhaled: exhaledGain, gainDecibelsInhaled: inhaledGain,
                waterHarmonics: water, skyHarmonics: sky, skyExhaled: skyExhaled, skyInhaled: skyInhaled)
        }
    }
}

extension Soundscape.Shimmer {
    /// Reads `"shimmer"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: [
            "amplitudePoints", "wavelengthPoints", "speedPointsPerSecond", "vibratoCentsPerPoint",
            "tremoloDecibelsPerPoint",
        ])
        let amplitude = try fields.requiredNumber("amplitudePoints", in: Self.amplitudeRangePoints)
        let wavelength = try fields.requiredNumber("wavelengthPoints", in: Self.wavelengthRangePoints)
        let speed = try fields.requiredNumber("speedPointsPerSecond", in: Self.speedRangePointsPerSecond)
        let vibrato = try fields.requiredNumber("vibratoCentsPerPoint", in: Self.vibratoRangeCentsPerPoint)
        let tremolo = try fields.requiredNumber("tremoloDecibelsPerPoint", in: Self.tremoloRangeDecibelsPerPoint)
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(
                amplitudePoints: amplitude, wavelengthPoints: wavelength, speedPointsPerSecond: speed,
                vibratoCentsPerPoint: vibrato, tremoloDecibelsPerPoint: tremolo)
        }
    }
}

extension Soundscape.Trail {
    /// Reads `"trail"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["pitchRatio", "gainDecibelsExhaled", "gainDecibelsInhaled", "lagSeconds", "harmonics"])
        let pitchRatio = try fields.requiredNumber("pitchRatio", in: Self.pitchRatioRange)
        let exhaledGain = try fields.requiredNumber("gainDecibelsExhaled", in: Self.gainRangeDecibels)
        let inhaledGain = try fields.requiredNumber("gainDecibelsInhaled", in: Self.gainRangeDecibels)
        let lag = try fields.requiredNumber("lagSeconds", in: Self.lagRangeSeconds)
        let harmonics = try fields.requiredNumbers("harmonics", in: Self.harmonicRange, counts: 1...Self.maximumHarmonics)
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(pitchRatio: pitchRatio, gainDecibelsExhaled: exhaledGain, gainDecibelsInhaled: inhaledGain, lagSeconds: lag, harmonics: harmonics)
        }
    }
}

extension Soundscape.Water {
    /// Reads `"water"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: [
            "gainDecibels", "layers", "levelPerPoint", "darkCutoffHz", "brightCutoffHz", "brightnessExhaled",
            "brightnessInhaled", "brightnessPerPoint", "width", "loopSeconds",
        ])
        let gain = try fields.requiredNumber("gainDecibels", in: Self.gainRangeDecibels)
        var layers: [Layer] = []
        for layer in try fields.requiredObjects("layers", counts: Self.layerCounts) {
            layers.append(try Layer(layer))
        }
        let levelPerPoint = try fields.requiredNumber("levelPerPoint", in: Self.levelPerPointRange)
        let darkCutoff = try fields.requiredNumber("darkCutoffHz", in: Self.cutoffRangeHz)
        let brightCutoff = try fields.requiredNumber("brightCutoffHz", in: Self.cutoffRangeHz)
        let brightnessExhaled = try fields.requiredNumber("brightnessExhaled", in: Self.shareRange)
        let brightnessInhaled = try fields.requiredNumber("brightnessInhaled", in: Self.shareRange)
        let brightnessPerPoint = try fields.requiredNumber("brightnessPerPoint", in: Self.shareRange)
        let width = try fields.requiredNumber("width", in: Self.shareRange)
        let loop = try fields.requiredNumber("loopSeconds", in: Self.loopRangeSeconds)
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(
                gainDecibels: gain, layers: layers, levelPerPoint: levelPerPoint, darkCutoffHz: darkCutoff,
                brightCutoffHz: brightCutoff, brightnessExhaled: brightnessExhaled, brightnessInhaled: brightnessInhaled,
                brightnessPerPoint: brightnessPerPoint, width: width, loopSeconds: loop)
        }
    }
}

extension Soundscape.Water.Layer {
    /// Reads one of `"layers"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["rateRadiansPerSecond", "depthPoints", "phaseRadians", "weight"])
        let rate = try fields.requiredNumber("rateRadiansPerSecond", in: Self.rateRangeRadiansPerSecond)
        let depth = try fields.requiredNumber("depthPoints", in: Self.depthRangePoints)
        let phase = try fields.requiredNumber("phaseRadians", in: Self.phaseRangeRadians)
        let weight = try fields.requiredNumber("weight", in: Self.weightRange)
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(rateRadiansPerSecond: rate, depthPoints: depth, phaseRadians: phase, weight: weight)
        }
    }
}

extension Soundscape.Rain {
    /// Reads `"rain"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: [
            "gainDecibels", "lowCutoffHz", "highCutoffHz", "dropsPerSecond", "dropGainDecibels", "dropLowHz",
            "dropHighHz", "dropDecaySeconds", "width", "loopSeconds",
        ])
        let gain = try fields.requiredNumber("gainDecibels", in: Self.gainRangeDecibels)
        let lowCutoff = try fields.requiredNumber("lowCutoffHz", in: Self.frequencyRangeHz)
        let highCutoff = try fields.requiredNumber("highCutoffHz", in: Self.frequencyRangeHz)
        let dropRate = try fields.requiredNumber("dropsPerSecond", in: Self.dropRateRangePerSecond)
        let dropGain = try fields.requiredNumber("dropGainDecibels", in: Self.dropGainRangeDecibels)
        let dropLow = try fields.requiredNumber("dropLowHz", in: Self.frequencyRangeHz)
        let dropHigh = try fields.requiredNumber("dropHighHz", in: Self.frequencyRangeHz)
        let dropDecay = try fields.requiredNumber("dropDecaySeconds", in: Self.dropDecayRangeSeconds)
        let width = try fields.requiredNumber("width", in: Self.widthRange)
        let loop = try fields.requiredNumber("loopSeconds", in: Self.loopRangeSeconds)
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(
                gainDecibels: gain, lowCutoffHz: lowCutoff, highCutoffHz: highCutoff, dropsPerSecond: dropRate,
                dropGainDecibels: dropGain, dropLowHz: dropLow, dropHighHz: dropHigh, dropDecaySeconds: dropDecay,
                width: width, loopSeconds: loop)
        }
    }
}

extension Soundscape.HoldSwell {
    /// Reads `"holdSwell"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["peak", "releaseSeconds"])
        let peak = try fields.requiredNumber("peak", in: Self.peakRange)
        let release = try fields.requiredNumber("releaseSeconds", in: Self.releaseRangeSeconds)
        self = try fields.checking { () throws(SoundscapeError) in try Self(peak: peak, releaseSeconds: release) }
    }
}

extension Soundscape.Calming {
    /// Reads `"calming"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["start", "end"])
        let start = try fields.requiredNumber("start", in: Self.scaleRange)
        let end = try fields.requiredNumber("end", in: Self.scaleRange)
        self = try fields.checking { () throws(SoundscapeError) in try Self(start: start, end: end) }
    }
}

extension Soundscape.Envelope {
    /// Reads `"envelope"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["fadeInSeconds", "releaseSeconds", "silenceSeconds"])
        let fadeIn = try fields.requiredNumber("fadeInSeconds", in: Self.fadeInRangeSeconds)
        let release = try fields.requiredNumber("releaseSeconds", in: Self.releaseRangeSeconds)
        let silence = try fields.requiredNumber("silenceSeconds", in: Self.silenceRangeSeconds)
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(fadeInSeconds: fadeIn, releaseSeconds: release, silenceSeconds: silence)
        }
    }
}

extension Soundscape.Limiter {
    /// Reads `"limiter"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["kneeDecibels", "ceilingDecibels"])
        let knee = try fields.requiredNumber("kneeDecibels", in: Self.levelRangeDecibels)
        let ceiling = try fields.requiredNumber("ceilingDecibels", in: Self.levelRangeDecibels)
        self = try fields.checking { () throws(SoundscapeError) in try Self(kneeDecibels: knee, ceilingDecibels: ceiling) }
    }
}

extension Soundscape.Cues {
    /// Reads `"cues"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: [
            "gainDecibels", "attackSeconds", "lengthSeconds", "fadeOutSeconds", "partials", "inhale", "hold", "exhale",
            "stage", "tick", "clipGainDecibels", "duckDecibels",
        ])
        let gain = try fields.requiredNumber("gainDecibels", in: Self.gainRangeDecibels)
        let attack = try fields.requiredNumber("attackSeconds", in: Self.attackRangeSeconds)
        let length = try fields.requiredNumber("lengthSeconds", in: Self.lengthRangeSeconds)
        let fadeOut = try fields.requiredNumber("fadeOutSeconds", in: Self.fadeOutRangeSeconds)
        var partials: [Partial] = []
        for partial in try fields.requiredObjects("partials", counts: Self.partialCounts) {
            partials.append(try Partial(partial))
        }
        let inhale = try Chime(fields.requiredObject("inhale"))
        let hold = try Chime(fields.requiredObject("hold"))
        let exhale = try Chime(fields.requiredObject("exhale"))
        let stage = try Chime(fields.requiredObject("stage"))
        let tick = try Tick(fields.requiredObject("tick"))
        let clipGain = try fields.requiredNumber("clipGainDecibels", in: Self.clipGainRangeDecibels)
        let duck = try fields.requiredNumber("duckDecibels", in: Self.duckRangeDecibels)
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(
                gainDecibels: gain, attackSeconds: attack, lengthSeconds: length, fadeOutSeconds: fadeOut, partials: partials,
                inhale: inhale, hold: hold, exhale: exhale, stage: stage, tick: tick, clipGainDecibels: clipGain, duckDecibels: duck)
        }
    }
}

extension Soundscape.Cues.Tick {
    /// Reads `"tick"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["highHz", "lowHz", "decaySeconds", "lengthSeconds", "gainDecibels"])
        let high = try fields.requiredNumber("highHz", in: Self.frequencyRangeHz)
        let low = try fields.requiredNumber("lowHz", in: Self.frequencyRangeHz)
        let decay = try fields.requiredNumber("decaySeconds", in: Self.decayRangeSeconds)
        let length = try fields.requiredNumber("lengthSeconds", in: Self.lengthRangeSeconds)
        let gain = try fields.requiredNumber("gainDecibels", in: Self.gainRangeDecibels)
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(highHz: high, lowHz: low, decaySeconds: decay, lengthSeconds: length, gainDecibels: gain)
        }
    }
}

extension Soundscape.Cues.Partial {
    /// Reads one of `"partials"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["ratio", "amplitude", "decaySeconds"])
        let ratio = try fields.requiredNumber("ratio", in: Self.ratioRange)
        let amplitude = try fields.requiredNumber("amplitude", in: Self.amplitudeRange)
        let decay = try fields.requiredNumber("decaySeconds", in: Self.decayRangeSeconds)
        self = try fields.checking { () throws(SoundscapeError) in try Self(ratio: ratio, amplitude: amplitude, decaySeconds: decay) }
    }
}

extension Soundscape.Cues.Chime {
    /// Reads `"inhale"`, `"hold"`, `"exhale"` or `"stage"` (whether its notes fit the chime's length, `Cues` checks).
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["notesHz", "noteSpacingSeconds", "gainDecibels"])
        let notes = try fields.requiredNumbers("notesHz", in: Self.noteRangeHz, counts: Self.noteCounts)
        let spacing = try fields.requiredNumber("noteSpacingSeconds", in: Self.spacingRangeSeconds)
        let gain = try fields.requiredNumber("gainDecibels", in: Self.gainRangeDecibels)
        self = try fields.checking { () throws(SoundscapeError) in try Self(notesHz: notes, noteSpacingSeconds: spacing, gainDecibels: gain) }
    }
}
