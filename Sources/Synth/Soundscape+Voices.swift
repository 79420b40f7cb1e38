extension Soundscape {
    /// The main tone: pitch `lowFrequencyHz·(highFrequencyHz/lowFrequencyHz)^L`, gain interpolated in dB by L,
    /// timbre crossfaded from the dark "water" harmonics to the bright "sky" harmonics as L rises.
    public struct Tone: Sendable, Equatable, SoundscapeSection {
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

        /// The pitches within 20…4000 Hz, the gains within −60…0 dB, each harmonic's amplitude and either sky share
        /// within 0…1.
        public static var fields: [SoundscapeField<Self>] {
            let harmonics = 1...maximumHarmonics
            return [
                SoundscapeField("lowFrequencyHz", \.lowFrequencyHz, in: 20...4000),
                SoundscapeField("highFrequencyHz", \.highFrequencyHz, in: 20...4000),
                SoundscapeField("gainDecibelsExhaled", \.gainDecibelsExhaled, in: -60...0),
                SoundscapeField("gainDecibelsInhaled", \.gainDecibelsInhaled, in: -60...0),
                SoundscapeField("waterHarmonics", \.waterHarmonics, in: 0...1, counts: harmonics),
                SoundscapeField("skyHarmonics", \.skyHarmonics, in: 0...1, counts: harmonics),
                SoundscapeField("skyExhaled", \.skyExhaled, in: 0...1),
                SoundscapeField("skyInhaled", \.skyInhaled, in: 0...1),
            ]
        }

        /// A tone, each number within its range, 1 to `maximumHarmonics` harmonics a timbre, the pitch not
        /// falling with the inhale.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(
            lowFrequencyHz: Double, highFrequencyHz: Double, gainDecibelsExhaled: Double, gainDecibelsInhaled: Double,
            waterHarmonics: [Double], skyHarmonics: [Double], skyExhaled: Double, skyInhaled: Double
        ) throws(SoundscapeError) {
            self.lowFrequencyHz = lowFrequencyHz
            self.highFrequencyHz = highFrequencyHz
            self.gainDecibelsExhaled = gainDecibelsExhaled
            self.gainDecibelsInhaled = gainDecibelsInhaled
            self.waterHarmonics = waterHarmonics
            self.skyHarmonics = skyHarmonics
            self.skyExhaled = skyExhaled
            self.skyInhaled = skyInhaled
            try checkFields()
            guard highFrequencyHz >= lowFrequencyHz else {
                throw SoundscapeError(field: "highFrequencyHz", reason: "must not be below lowFrequencyHz (\(SoundscapeError.text(lowFrequencyHz))): the pitch rises with the inhale")
            }
        }
    }

    /// The horizon's sine wave y = A·sin(ωt) (A = 5 pt, λ = 320 pt; docs/sound-design.md § 3) heard as a slight vibrato
    /// and tremolo on the main tone; its depth calms with the session like the ripples.
    public struct Shimmer: Sendable, Equatable, SoundscapeSection {
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

        /// Each number with its range, in its own unit.
        public static var fields: [SoundscapeField<Self>] {
            [
                SoundscapeField("amplitudePoints", \.amplitudePoints, in: 0...50),
                SoundscapeField("wavelengthPoints", \.wavelengthPoints, in: 1...10000),
                SoundscapeField("speedPointsPerSecond", \.speedPointsPerSecond, in: 0...100_000),
                SoundscapeField("vibratoCentsPerPoint", \.vibratoCentsPerPoint, in: 0...10),
                SoundscapeField("tremoloDecibelsPerPoint", \.tremoloDecibelsPerPoint, in: 0...1),
            ]
        }

        /// A shimmer, each number within its range.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(
            amplitudePoints: Double, wavelengthPoints: Double, speedPointsPerSecond: Double, vibratoCentsPerPoint: Double,
            tremoloDecibelsPerPoint: Double
        ) throws(SoundscapeError) {
            self.amplitudePoints = amplitudePoints
            self.wavelengthPoints = wavelengthPoints
            self.speedPointsPerSecond = speedPointsPerSecond
            self.vibratoCentsPerPoint = vibratoCentsPerPoint
            self.tremoloDecibelsPerPoint = tremoloDecibelsPerPoint
            try checkFields()
        }
    }

    /// A softer pad that follows the level through a one-pole lag, like the picture's glow (docs/sound-design.md § 4)
    /// (`g += (target − g)·0.08` per 60 Hz frame, τ ≈ 0.2 s).
    public struct Trail: Sendable, Equatable, SoundscapeSection {
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

        /// The pitch ratio within 0.125…8, the gains within −120…0 dB, the lag within 0.001…10 s, each harmonic's
        /// amplitude within 0…1.
        public static var fields: [SoundscapeField<Self>] {
            [
                SoundscapeField("pitchRatio", \.pitchRatio, in: 0.125...8),
                SoundscapeField("gainDecibelsExhaled", \.gainDecibelsExhaled, in: -120...0),
                SoundscapeField("gainDecibelsInhaled", \.gainDecibelsInhaled, in: -120...0),
                SoundscapeField("lagSeconds", \.lagSeconds, in: 0.001...10),
                SoundscapeField("harmonics", \.harmonics, in: 0...1, counts: 1...maximumHarmonics),
            ]
        }

        /// A pad, each number within its range, 1 to `maximumHarmonics` harmonics.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(pitchRatio: Double, gainDecibelsExhaled: Double, gainDecibelsInhaled: Double, lagSeconds: Double, harmonics: [Double]) throws(SoundscapeError) {
            self.pitchRatio = pitchRatio
            self.gainDecibelsExhaled = gainDecibelsExhaled
            self.gainDecibelsInhaled = gainDecibelsInhaled
            self.lagSeconds = lagSeconds
            self.harmonics = harmonics
            try checkFields()
        }
    }

    /// The water bed: looping filtered noise, crossfaded from a dark to a bright filtering ("the filter moves")
    /// and raised in level by the ripple layers.
    public struct Water: Sendable, Equatable, SoundscapeSection {
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
        public struct Layer: Sendable, Equatable, SoundscapeSection {
            /// Angular rate, rad/s.
            public let rateRadiansPerSecond: Double
            /// Amplitude, points.
            public let depthPoints: Double
            /// Starting phase, radians.
            public let phaseRadians: Double
            /// Mix weight (the picture's opacity).
            public let weight: Double

            /// Each number with its range, in its own unit.
            public static var fields: [SoundscapeField<Self>] {
                [
                    SoundscapeField("rateRadiansPerSecond", \.rateRadiansPerSecond, in: 0...100),
                    SoundscapeField("depthPoints", \.depthPoints, in: 0...100),
                    SoundscapeField("phaseRadians", \.phaseRadians, in: -100...100),
                    SoundscapeField("weight", \.weight, in: 0...1),
                ]
            }

            /// A layer, each number within its range.
            /// - Throws: `SoundscapeError` naming the field at fault.
            public init(rateRadiansPerSecond: Double, depthPoints: Double, phaseRadians: Double, weight: Double) throws(SoundscapeError) {
                self.rateRadiansPerSecond = rateRadiansPerSecond
                self.depthPoints = depthPoints
                self.phaseRadians = phaseRadians
                self.weight = weight
                try checkFields()
            }
        }

        /// How many ripple layers there may be.
        public static let layerCounts: ClosedRange<Int> = 1...6

        /// The gain within −120…0 dB, the cutoffs within 20…20000 Hz, the bright shares, `brightnessPerPoint` and
        /// `width` within 0…1, the loop within 1…30 s (the layers are checked as layers).
        public static var fields: [SoundscapeField<Self>] {
            [
                SoundscapeField("gainDecibels", \.gainDecibels, in: -120...0),
                SoundscapeField("levelPerPoint", \.levelPerPoint, in: 0...10),
                SoundscapeField("darkCutoffHz", \.darkCutoffHz, in: 20...20000),
                SoundscapeField("brightCutoffHz", \.brightCutoffHz, in: 20...20000),
                SoundscapeField("brightnessExhaled", \.brightnessExhaled, in: 0...1),
                SoundscapeField("brightnessInhaled", \.brightnessInhaled, in: 0...1),
                SoundscapeField("brightnessPerPoint", \.brightnessPerPoint, in: 0...1),
                SoundscapeField("width", \.width, in: 0...1),
                SoundscapeField("loopSeconds", \.loopSeconds, in: 1...30),
            ]
        }

        /// A water bed, each number within its range, with `layerCounts` layers.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(
            gainDecibels: Double, layers: [Layer], levelPerPoint: Double, darkCutoffHz: Double, brightCutoffHz: Double,
            brightnessExhaled: Double, brightnessInhaled: Double, brightnessPerPoint: Double, width: Double, loopSeconds: Double
        ) throws(SoundscapeError) {
            self.gainDecibels = gainDecibels
            self.layers = layers
            self.levelPerPoint = levelPerPoint
            self.darkCutoffHz = darkCutoffHz
            self.brightCutoffHz = brightCutoffHz
            self.brightnessExhaled = brightnessExhaled
            self.brightnessInhaled = brightnessInhaled
            self.brightnessPerPoint = brightnessPerPoint
            self.width = width
            self.loopSeconds = loopSeconds
            try checkFields()
            guard Self.layerCounts.contains(layers.count) else {
                throw SoundscapeError(field: "layers", reason: "expected \(Self.layerCounts.lowerBound) to \(Self.layerCounts.upperBound) objects, found \(layers.count)")
            }
        }
    }

    /// An optional rain bed: band-limited noise with sparse droplets, looped; steady, no ripple.
    public struct Rain: Sendable, Equatable, SoundscapeSection {
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

        /// Each number with its range: the cutoffs and droplet pitches within 20…20000 Hz.
        public static var fields: [SoundscapeField<Self>] {
            [
                SoundscapeField("gainDecibels", \.gainDecibels, in: -120...0),
                SoundscapeField("lowCutoffHz", \.lowCutoffHz, in: 20...20000),
                SoundscapeField("highCutoffHz", \.highCutoffHz, in: 20...20000),
                SoundscapeField("dropsPerSecond", \.dropsPerSecond, in: 0...1000),
                SoundscapeField("dropGainDecibels", \.dropGainDecibels, in: -60...24),
                SoundscapeField("dropLowHz", \.dropLowHz, in: 20...20000),
                SoundscapeField("dropHighHz", \.dropHighHz, in: 20...20000),
                SoundscapeField("dropDecaySeconds", \.dropDecaySeconds, in: 0.001...1),
                SoundscapeField("width", \.width, in: 0...1),
                SoundscapeField("loopSeconds", \.loopSeconds, in: 1...30),
            ]
        }

        /// A rain bed, each number within its range, the droplets' highest pitch not below their lowest.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(
            gainDecibels: Double, lowCutoffHz: Double, highCutoffHz: Double, dropsPerSecond: Double, dropGainDecibels: Double,
            dropLowHz: Double, dropHighHz: Double, dropDecaySeconds: Double, width: Double, loopSeconds: Double
        ) throws(SoundscapeError) {
            self.gainDecibels = gainDecibels
            self.lowCutoffHz = lowCutoffHz
            self.highCutoffHz = highCutoffHz
            self.dropsPerSecond = dropsPerSecond
            self.dropGainDecibels = dropGainDecibels
            self.dropLowHz = dropLowHz
            self.dropHighHz = dropHighHz
            self.dropDecaySeconds = dropDecaySeconds
            self.width = width
            self.loopSeconds = loopSeconds
            try checkFields()
            guard dropHighHz >= dropLowHz else {
                throw SoundscapeError(field: "dropHighHz", reason: "must not be below dropLowHz (\(SoundscapeError.text(dropLowHz)))")
            }
        }
    }
}
