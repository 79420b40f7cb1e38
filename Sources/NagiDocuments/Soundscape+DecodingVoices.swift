import Synth

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
