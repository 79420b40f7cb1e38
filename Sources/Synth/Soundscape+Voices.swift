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

        /// The range of `lowFrequencyHz` and `highFrequencyHz`, Hz.
        public static let frequencyRangeHz: ClosedRange<Double> = 20...4000
        /// The range of either gain, dB.
        public static let gainRangeDecibels: ClosedRange<Double> = -60...0
        /// The range of each harmonic's amplitude and of either sky share.
        public static let shareRange: ClosedRange<Double> = 0...1

        /// A tone, each number within its range, 1 to `maximumHarmonics` harmonics a timbre, the pitch not
        /// falling with the inhale.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(
            lowFrequencyHz: Double, highFrequencyHz: Double, gainDecibelsExhaled: Double, gainDecibelsInhaled: Double,
            waterHarmonics: [Double], skyHarmonics: [Double], skyExhaled: Double, skyInhaled: Double
        ) throws(SoundscapeError) {
            self.lowFrequencyHz = try SoundscapeError.checked(lowFrequencyHz, "lowFrequencyHz", in: Self.frequencyRangeHz)
            self.highFrequencyHz = try SoundscapeError.checked(highFrequencyHz, "highFrequencyHz", in: Self.frequencyRangeHz)
            guard highFrequencyHz >= lowFrequencyHz else {
                throw SoundscapeError(field: "highFrequencyHz", reason: "must not be below lowFrequencyHz (\(SoundscapeError.text(lowFrequencyHz))): the pitch rises with the inhale")
            }
            self.gainDecibelsExhaled = try SoundscapeError.checked(gainDecibelsExhaled, "gainDecibelsExhaled", in: Self.gainRangeDecibels)
            self.gainDecibelsInhaled = try SoundscapeError.checked(gainDecibelsInhaled, "gainDecibelsInhaled", in: Self.gainRangeDecibels)
            self.waterHarmonics = try SoundscapeError.checked(waterHarmonics, "waterHarmonics", in: Self.shareRange, counts: 1...Self.maximumHarmonics)
            self.skyHarmonics = try SoundscapeError.checked(skyHarmonics, "skyHarmonics", in: Self.shareRange, counts: 1...Self.maximumHarmonics)
            self.skyExhaled = try SoundscapeError.checked(skyExhaled, "skyExhaled", in: Self.shareRange)
            self.skyInhaled = try SoundscapeError.checked(skyInhaled, "skyInhaled", in: Self.shareRange)
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

        /// The range of `amplitudePoints`, points.
        public static let amplitudeRangePoints: ClosedRange<Double> = 0...50
        /// The range of `wavelengthPoints`, points.
        public static let wavelengthRangePoints: ClosedRange<Double> = 1...10000
        /// The range of `speedPointsPerSecond`.
        public static let speedRangePointsPerSecond: ClosedRange<Double> = 0...100_000
        /// The range of `vibratoCentsPerPoint`.
        public static let vibratoRangeCentsPerPoint: ClosedRange<Double> = 0...10
        /// The range of `tremoloDecibelsPerPoint`.
        public static let tremoloRangeDecibelsPerPoint: ClosedRange<Double> = 0...1

        /// A shimmer, each number within its range.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(
            amplitudePoints: Double, wavelengthPoints: Double, speedPointsPerSecond: Double, vibratoCentsPerPoint: Double,
            tremoloDecibelsPerPoint: Double
        ) throws(SoundscapeError) {
            self.amplitudePoints = try SoundscapeError.checked(amplitudePoints, "amplitudePoints", in: Self.amplitudeRangePoints)
            self.wavelengthPoints = try SoundscapeError.checked(wavelengthPoints, "wavelengthPoints", in: Self.wavelengthRangePoints)
            self.speedPointsPerSecond = try SoundscapeError.checked(speedPointsPerSecond, "speedPointsPerSecond", in: Self.speedRangePointsPerSecond)
            self.vibratoCentsPerPoint = try SoundscapeError.checked(vibratoCentsPerPoint, "vibratoCentsPerPoint", in: Self.vibratoRangeCentsPerPoint)
            self.tremoloDecibelsPerPoint = try SoundscapeError.checked(tremoloDecibelsPerPoint, "tremoloDecibelsPerPoint", in: Self.tremoloRangeDecibelsPerPoint)
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

        /// The range of `pitchRatio`.
        public static let pitchRatioRange: ClosedRange<Double> = 0.125...8
        /// The range of either gain, dB.
        public static let gainRangeDecibels: ClosedRange<Double> = -120...0
        /// The range of `lagSeconds`.
        public static let lagRangeSeconds: ClosedRange<Double> = 0.001...10
        /// The range of each harmonic's amplitude.
        public static let harmonicRange: ClosedRange<Double> = 0...1

        /// A pad, each number within its range, 1 to `maximumHarmonics` harmonics.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(pitchRatio: Double, gainDecibelsExhaled: Double, gainDecibelsInhaled: Double, lagSeconds: Double, harmonics: [Double]) throws(SoundscapeError) {
            self.pitchRatio = try SoundscapeError.checked(pitchRatio, "pitchRatio", in: Self.pitchRatioRange)
            self.gainDecibelsExhaled = try SoundscapeError.checked(gainDecibelsExhaled, "gainDecibelsExhaled", in: Self.gainRangeDecibels)
            self.gainDecibelsInhaled = try SoundscapeError.checked(gainDecibelsInhaled, "gainDecibelsInhaled", in: Self.gainRangeDecibels)
            self.lagSeconds = try SoundscapeError.checked(lagSeconds, "lagSeconds", in: Self.lagRangeSeconds)
            self.harmonics = try SoundscapeError.checked(harmonics, "harmonics", in: Self.harmonicRange, counts: 1...Self.maximumHarmonics)
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

            /// The range of `rateRadiansPerSecond`.
            public static let rateRangeRadiansPerSecond: ClosedRange<Double> = 0...100
            /// The range of `depthPoints`.
            public static let depthRangePoints: ClosedRange<Double> = 0...100
            /// The range of `phaseRadians`.
            public static let phaseRangeRadians: ClosedRange<Double> = -100...100
            /// The range of `weight`.
            public static let weightRange: ClosedRange<Double> = 0...1

            /// A layer, each number within its range.
            /// - Throws: `SoundscapeError` naming the field at fault.
            public init(rateRadiansPerSecond: Double, depthPoints: Double, phaseRadians: Double, weight: Double) throws(SoundscapeError) {
                self.rateRadiansPerSecond = try SoundscapeError.checked(rateRadiansPerSecond, "rateRadiansPerSecond", in: Self.rateRangeRadiansPerSecond)
                self.depthPoints = try SoundscapeError.checked(depthPoints, "depthPoints", in: Self.depthRangePoints)
                self.phaseRadians = try SoundscapeError.checked(phaseRadians, "phaseRadians", in: Self.phaseRangeRadians)
                self.weight = try SoundscapeError.checked(weight, "weight", in: Self.weightRange)
            }
        }

        /// The range of `gainDecibels`, dB.
        public static let gainRangeDecibels: ClosedRange<Double> = -120...0
        /// How many ripple layers there may be.
        public static let layerCounts: ClosedRange<Int> = 1...6
        /// The range of `levelPerPoint`.
        public static let levelPerPointRange: ClosedRange<Double> = 0...10
        /// The range of either cutoff, Hz.
        public static let cutoffRangeHz: ClosedRange<Double> = 20...20000
        /// The range of either bright share, of `brightnessPerPoint` and of `width`.
        public static let shareRange: ClosedRange<Double> = 0...1
        /// The range of `loopSeconds`.
        public static let loopRangeSeconds: ClosedRange<Double> = 1...30

        /// A water bed, each number within its range, with `layerCounts` layers.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(
            gainDecibels: Double, layers: [Layer], levelPerPoint: Double, darkCutoffHz: Double, brightCutoffHz: Double,
            brightnessExhaled: Double, brightnessInhaled: Double, brightnessPerPoint: Double, width: Double, loopSeconds: Double
        ) throws(SoundscapeError) {
            self.gainDecibels = try SoundscapeError.checked(gainDecibels, "gainDecibels", in: Self.gainRangeDecibels)
            guard Self.layerCounts.contains(layers.count) else {
                throw SoundscapeError(field: "layers", reason: "expected \(Self.layerCounts.lowerBound) to \(Self.layerCounts.upperBound) objects, found \(layers.count)")
            }
            self.layers = layers
            self.levelPerPoint = try SoundscapeError.checked(levelPerPoint, "levelPerPoint", in: Self.levelPerPointRange)
            self.darkCutoffHz = try SoundscapeError.checked(darkCutoffHz, "darkCutoffHz", in: Self.cutoffRangeHz)
            self.brightCutoffHz = try SoundscapeError.checked(brightCutoffHz, "brightCutoffHz", in: Self.cutoffRangeHz)
            self.brightnessExhaled = try SoundscapeError.checked(brightnessExhaled, "brightnessExhaled", in: Self.shareRange)
            self.brightnessInhaled = try SoundscapeError.checked(brightnessInhaled, "brightnessInhaled", in: Self.shareRange)
            self.brightnessPerPoint = try SoundscapeError.checked(brightnessPerPoint, "brightnessPerPoint", in: Self.shareRange)
            self.width = try SoundscapeError.checked(width, "width", in: Self.shareRange)
            self.loopSeconds = try SoundscapeError.checked(loopSeconds, "loopSeconds", in: Self.loopRangeSeconds)
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

        /// The range of `gainDecibels`, dB.
        public static let gainRangeDecibels: ClosedRange<Double> = -120...0
        /// The range of either cutoff and of a droplet's pitch, Hz.
        public static let frequencyRangeHz: ClosedRange<Double> = 20...20000
        /// The range of `dropsPerSecond`.
        public static let dropRateRangePerSecond: ClosedRange<Double> = 0...1000
        /// The range of `dropGainDecibels`, dB.
        public static let dropGainRangeDecibels: ClosedRange<Double> = -60...24
        /// The range of `dropDecaySeconds`.
        public static let dropDecayRangeSeconds: ClosedRange<Double> = 0.001...1
        /// The range of `width`.
        public static let widthRange: ClosedRange<Double> = 0...1
        /// The range of `loopSeconds`.
        public static let loopRangeSeconds: ClosedRange<Double> = 1...30

        /// A rain bed, each number within its range, the droplets' highest pitch not below their lowest.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(
            gainDecibels: Double, lowCutoffHz: Double, highCutoffHz: Double, dropsPerSecond: Double, dropGainDecibels: Double,
            dropLowHz: Double, dropHighHz: Double, dropDecaySeconds: Double, width: Double, loopSeconds: Double
        ) throws(SoundscapeError) {
            self.gainDecibels = try SoundscapeError.checked(gainDecibels, "gainDecibels", in: Self.gainRangeDecibels)
            self.lowCutoffHz = try SoundscapeError.checked(lowCutoffHz, "lowCutoffHz", in: Self.frequencyRangeHz)
            self.highCutoffHz = try SoundscapeError.checked(highCutoffHz, "highCutoffHz", in: Self.frequencyRangeHz)
            self.dropsPerSecond = try SoundscapeError.checked(dropsPerSecond, "dropsPerSecond", in: Self.dropRateRangePerSecond)
            self.dropGainDecibels = try SoundscapeError.checked(dropGainDecibels, "dropGainDecibels", in: Self.dropGainRangeDecibels)
            self.dropLowHz = try SoundscapeError.checked(dropLowHz, "dropLowHz", in: Self.frequencyRangeHz)
            self.dropHighHz = try SoundscapeError.checked(dropHighHz, "dropHighHz", in: Self.frequencyRangeHz)
            guard dropHighHz >= dropLowHz else {
                throw SoundscapeError(field: "dropHighHz", reason: "must not be below dropLowHz (\(SoundscapeError.text(dropLowHz)))")
            }
            self.dropDecaySeconds = try SoundscapeError.checked(dropDecaySeconds, "dropDecaySeconds", in: Self.dropDecayRangeSeconds)
            self.width = try SoundscapeError.checked(width, "width", in: Self.widthRange)
            self.loopSeconds = try SoundscapeError.checked(loopSeconds, "loopSeconds", in: Self.loopRangeSeconds)
        }
    }
}
