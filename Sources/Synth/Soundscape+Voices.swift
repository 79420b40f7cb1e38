import Breath
import NagiDocuments

extension Soundscape {
    /// The main tone: pitch `lowFrequencyHz·(highFrequencyHz/lowFrequencyHz)^L`, gain interpolated in dB by L,
    /// timbre crossfaded from the dark "water" harmonics to the bright "sky" harmonics as L rises.
    public struct Tone: Sendable, Equatable {
        /// Pitch when fully exhaled (L = 0), Hz.
        public let lowFrequencyHz: Double
        /// Pitch when fully inhaled (L = 1), Hz; not below `lowFrequencyHz`.
        public let highFrequencyHz: Double
        /// Gain at L = 0, dB.
        public let gainDecibelsExhaled: Double
        /// Gain at L = 1, dB.
        public let gainDecibelsInhaled: Double
        /// Amplitudes of harmonics 1, 2, … of the dark timbre (at most 4).
        public let waterHarmonics: [Double]
        /// Amplitudes of harmonics 1, 2, … of the bright timbre (at most 4).
        public let skyHarmonics: [Double]
        /// How much of the sky timbre sounds at L = 0 (0…1).
        public let skyExhaled: Double
        /// How much of the sky timbre sounds at L = 1 (0…1).
        public let skyInhaled: Double

        /// The most harmonics the tone's shaping polynomial carries.
        public static let maximumHarmonics = 4

        init(_ fields: JSONFields) throws(ContentError) {
            try fields.rejectUnknownKeys(allowed: [
                "lowFrequencyHz", "highFrequencyHz", "gainDecibelsExhaled", "gainDecibelsInhaled",
                "waterHarmonics", "skyHarmonics", "skyExhaled", "skyInhaled",
            ])
            lowFrequencyHz = try fields.requiredNumber("lowFrequencyHz", in: 20...4000)
            highFrequencyHz = try fields.requiredNumber("highFrequencyHz", in: 20...4000)
            guard highFrequencyHz >= lowFrequencyHz else {
                throw fields.error("highFrequencyHz", "must not be below lowFrequencyHz (\(JSONFields.text(lowFrequencyHz))): the pitch rises with the inhale")
            }
            gainDecibelsExhaled = try fields.requiredNumber("gainDecibelsExhaled", in: -60...0)
            gainDecibelsInhaled = try fields.requiredNumber("gainDecibelsInhaled", in: -60...0)
            waterHarmonics = try fields.requiredNumbers("waterHarmonics", in: 0...1, counts: 1...Self.maximumHarmonics)
            skyHarmonics = try fields.requiredNumbers("skyHarmonics", in: 0...1, counts: 1...Self.maximumHarmonics)
            skyExhaled = try fields.requiredNumber("skyExhaled", in: 0...1)
            skyInhaled = try fields.requiredNumber("skyInhaled", in: 0...1)
        }
    }

    /// The horizon's sine wave y = A·sin(ωt) (A = 5 pt, λ = 320 pt; docs/sound-design.md § 3) heard as a slight vibrato
    /// and tremolo on the main tone; its depth calms with the session like the ripples.
    public struct Shimmer: Sendable, Equatable {
        /// The wave's amplitude, in the picture's points.
        public let amplitudePoints: Double
        /// The wave's length, in points.
        public let wavelengthPoints: Double
        /// How fast the wave travels, points per second; the wave's rate is speed / wavelength, Hz.
        public let speedPointsPerSecond: Double
        /// Vibrato depth per point of amplitude, cents.
        public let vibratoCentsPerPoint: Double
        /// Tremolo depth per point of amplitude, dB.
        public let tremoloDecibelsPerPoint: Double

        init(_ fields: JSONFields) throws(ContentError) {
            try fields.rejectUnknownKeys(allowed: [
                "amplitudePoints", "wavelengthPoints", "speedPointsPerSecond", "vibratoCentsPerPoint",
                "tremoloDecibelsPerPoint",
            ])
            amplitudePoints = try fields.requiredNumber("amplitudePoints", in: 0...50)
            wavelengthPoints = try fields.requiredNumber("wavelengthPoints", in: 1...10000)
            speedPointsPerSecond = try fields.requiredNumber("speedPointsPerSecond", in: 0...100_000)
            vibratoCentsPerPoint = try fields.requiredNumber("vibratoCentsPerPoint", in: 0...10)
            tremoloDecibelsPerPoint = try fields.requiredNumber("tremoloDecibelsPerPoint", in: 0...1)
        }
    }

    /// A softer pad that follows the level through a one-pole lag, like the picture's glow (docs/sound-design.md § 4)
    /// (`g += (target − g)·0.08` per 60 Hz frame, τ ≈ 0.2 s).
    public struct Trail: Sendable, Equatable {
        /// The pad's pitch as a ratio of the main tone's pitch at the lagged level (0.5: an octave below).
        public let pitchRatio: Double
        /// Gain at lagged L = 0, dB.
        public let gainDecibelsExhaled: Double
        /// Gain at lagged L = 1, dB.
        public let gainDecibelsInhaled: Double
        /// The lag's time constant τ, seconds.
        public let lagSeconds: Double
        /// Amplitudes of harmonics 1, 2, … (at most 3).
        public let harmonics: [Double]

        /// The most harmonics the pad's shaping polynomial carries.
        public static let maximumHarmonics = 3

        init(_ fields: JSONFields) throws(ContentError) {
            try fields.rejectUnknownKeys(allowed: ["pitchRatio", "gainDecibelsExhaled", "gainDecibelsInhaled", "lagSeconds", "harmonics"])
            pitchRatio = try fields.requiredNumber("pitchRatio", in: 0.125...8)
            gainDecibelsExhaled = try fields.requiredNumber("gainDecibelsExhaled", in: -120...0)
            gainDecibelsInhaled = try fields.requiredNumber("gainDecibelsInhaled", in: -120...0)
            lagSeconds = try fields.requiredNumber("lagSeconds", in: 0.001...10)
            harmonics = try fields.requiredNumbers("harmonics", in: 0...1, counts: 1...Self.maximumHarmonics)
        }
    }

    /// The water bed: looping filtered noise, crossfaded from a dark to a bright filtering ("the filter moves")
    /// and raised in level by the ripple layers.
    public struct Water: Sendable, Equatable {
        /// The bed's RMS level with no ripple, dBFS before the master gain.
        public let gainDecibels: Double
        /// The ripple layers (docs/sound-design.md § 5: rates 1.5 / 2.3 / 3.1 rad/s, amplitudes 4 / 3 / 2 pt,
        /// phases 0 / π/3 / 2π/3, opacities 0.25 / 0.18 / 0.12).
        public let layers: [Layer]
        /// Linear level rise per point of the layers' (positive) sum, at modulation envelope 1.
        public let levelPerPoint: Double
        /// Cutoff of the dark filtering (two one-pole low-passes), Hz.
        public let darkCutoffHz: Double
        /// Cutoff of the bright filtering, Hz.
        public let brightCutoffHz: Double
        /// The bright share at L = 0 (0…1).
        public let brightnessExhaled: Double
        /// The bright share at L = 1 (0…1).
        public let brightnessInhaled: Double
        /// The bright share moved per point of the layers' signed sum, at modulation envelope 1.
        public let brightnessPerPoint: Double
        /// Stereo width: the side signal's share (0 mono … 1 fully decorrelated); mono sums lose only it.
        public let width: Double
        /// The noise loop's length, seconds (long enough that no repetition is heard).
        public let loopSeconds: Double

        /// One ripple layer: `weight·depthPoints·sin(rate·t + phase)`.
        public struct Layer: Sendable, Equatable {
            /// Angular rate, rad/s.
            public let rateRadiansPerSecond: Double
            /// Amplitude, points.
            public let depthPoints: Double
            /// Starting phase, radians.
            public let phaseRadians: Double
            /// Mix weight (the picture's opacity).
            public let weight: Double

            init(_ fields: JSONFields) throws(ContentError) {
                try fields.rejectUnknownKeys(allowed: ["rateRadiansPerSecond", "depthPoints", "phaseRadians", "weight"])
                rateRadiansPerSecond = try fields.requiredNumber("rateRadiansPerSecond", in: 0...100)
                depthPoints = try fields.requiredNumber("depthPoints", in: 0...100)
                phaseRadians = try fields.requiredNumber("phaseRadians", in: -100...100)
                weight = try fields.requiredNumber("weight", in: 0...1)
            }
        }

        init(_ fields: JSONFields) throws(ContentError) {
            try fields.rejectUnknownKeys(allowed: [
                "gainDecibels", "layers", "levelPerPoint", "darkCutoffHz", "brightCutoffHz", "brightnessExhaled",
                "brightnessInhaled", "brightnessPerPoint", "width", "loopSeconds",
            ])
            gainDecibels = try fields.requiredNumber("gainDecibels", in: -120...0)
            var layers: [Layer] = []
            for layer in try fields.requiredObjects("layers", counts: 1...6) {
                layers.append(try Layer(layer))
            }
            self.layers = layers
            levelPerPoint = try fields.requiredNumber("levelPerPoint", in: 0...10)
            darkCutoffHz = try fields.requiredNumber("darkCutoffHz", in: 20...20000)
            brightCutoffHz = try fields.requiredNumber("brightCutoffHz", in: 20...20000)
            brightnessExhaled = try fields.requiredNumber("brightnessExhaled", in: 0...1)
            brightnessInhaled = try fields.requiredNumber("brightnessInhaled", in: 0...1)
            brightnessPerPoint = try fields.requiredNumber("brightnessPerPoint", in: 0...1)
            width = try fields.requiredNumber("width", in: 0...1)
            loopSeconds = try fields.requiredNumber("loopSeconds", in: 1...30)
        }
    }

    /// An optional rain bed: band-limited noise with sparse droplets, looped; steady, no ripple.
    public struct Rain: Sendable, Equatable {
        /// The bed's RMS level, dBFS before the master gain.
        public let gainDecibels: Double
        /// High-pass cutoff (one pole), Hz.
        public let lowCutoffHz: Double
        /// Low-pass cutoff (two one-pole stages), Hz.
        public let highCutoffHz: Double
        /// Average droplets per second.
        public let dropsPerSecond: Double
        /// A droplet's peak relative to the bed's RMS, dB.
        public let dropGainDecibels: Double
        /// Lowest droplet pitch, Hz.
        public let dropLowHz: Double
        /// Highest droplet pitch, Hz.
        public let dropHighHz: Double
        /// A droplet's decay time constant, seconds.
        public let dropDecaySeconds: Double
        /// Stereo width (0…1), as for the water.
        public let width: Double
        /// The loop's length, seconds.
        public let loopSeconds: Double

        init(_ fields: JSONFields) throws(ContentError) {
            try fields.rejectUnknownKeys(allowed: [
                "gainDecibels", "lowCutoffHz", "highCutoffHz", "dropsPerSecond", "dropGainDecibels", "dropLowHz",
                "dropHighHz", "dropDecaySeconds", "width", "loopSeconds",
            ])
            gainDecibels = try fields.requiredNumber("gainDecibels", in: -120...0)
            lowCutoffHz = try fields.requiredNumber("lowCutoffHz", in: 20...20000)
            highCutoffHz = try fields.requiredNumber("highCutoffHz", in: 20...20000)
            dropsPerSecond = try fields.requiredNumber("dropsPerSecond", in: 0...1000)
            dropGainDecibels = try fields.requiredNumber("dropGainDecibels", in: -60...24)
            dropLowHz = try fields.requiredNumber("dropLowHz", in: 20...20000)
            dropHighHz = try fields.requiredNumber("dropHighHz", in: 20...20000)
            guard dropHighHz >= dropLowHz else {
                throw fields.error("dropHighHz", "must not be below dropLowHz (\(JSONFields.text(dropLowHz)))")
            }
            dropDecaySeconds = try fields.requiredNumber("dropDecaySeconds", in: 0.001...1)
            width = try fields.requiredNumber("width", in: 0...1)
            loopSeconds = try fields.requiredNumber("loopSeconds", in: 1...30)
        }
    }
}
