import Breath

extension Soundscape {
    /// Soft chimes at phase starts, one per phase kind so a listener with closed eyes knows which began
    /// (inhale, hold, exhale). Each chime is a few notes of the same bell-like partials; it starts on the
    /// phase's first frame with a short attack ramp.
    public struct Cues: Sendable, Equatable {
        /// The chimes' peak level, dBFS before the master gain.
        public let gainDecibels: Double
        /// Attack ramp of every note, seconds.
        public let attackSeconds: Double
        /// A chime's whole length, seconds.
        public let lengthSeconds: Double
        /// The fade over a chime's last part, seconds (so its end is silent, not cut).
        public let fadeOutSeconds: Double
        /// The partials of every note.
        public let partials: [Partial]
        /// The chime when an inhale begins.
        public let inhale: Chime
        /// The chime when a hold (after inhale or exhale) begins.
        public let hold: Chime
        /// The chime when an exhale begins.
        public let exhale: Chime
        /// The chime when a labelled stage's step changes (a resonance step).
        public let stage: Chime
        /// The counting tick.
        public let tick: Tick
        /// The peak level of spoken and cue-pack clips (each normalised to peak 1 first), dBFS before the
        /// master gain.
        public let clipGainDecibels: Double
        /// How far the beds (water, rain) dip under a clip, dB (0: no ducking); the dip begins on the clip's
        /// first frame, never before.
        public let duckDecibels: Double

        /// A soft tick: one decaying sine whose pitch falls from `highHz` (a phase's first second) towards
        /// `lowHz` (its end), so the last ticks sound like winding down.
        public struct Tick: Sendable, Equatable {
            /// Pitch at the phase's start, Hz.
            public let highHz: Double
            /// Pitch at the phase's end, Hz.
            public let lowHz: Double
            /// Decay time constant, seconds.
            public let decaySeconds: Double
            /// The tick's whole length, seconds.
            public let lengthSeconds: Double
            /// Peak level relative to the chimes' `gainDecibels`, dB.
            public let gainDecibels: Double

            /// The range of either pitch, Hz.
            public static let frequencyRangeHz: ClosedRange<Double> = 100...8000
            /// The range of `decaySeconds`.
            public static let decayRangeSeconds: ClosedRange<Double> = 0.001...0.2
            /// The range of `lengthSeconds`.
            public static let lengthRangeSeconds: ClosedRange<Double> = 0.005...0.5
            /// The range of `gainDecibels`, dB.
            public static let gainRangeDecibels: ClosedRange<Double> = -40...0

            /// A tick, each number within its range.
            /// - Throws: `SoundscapeError` naming the field at fault.
            public init(highHz: Double, lowHz: Double, decaySeconds: Double, lengthSeconds: Double, gainDecibels: Double) throws(SoundscapeError) {
                self.highHz = try SoundscapeError.checked(highHz, "highHz", in: Self.frequencyRangeHz)
                self.lowHz = try SoundscapeError.checked(lowHz, "lowHz", in: Self.frequencyRangeHz)
                self.decaySeconds = try SoundscapeError.checked(decaySeconds, "decaySeconds", in: Self.decayRangeSeconds)
                self.lengthSeconds = try SoundscapeError.checked(lengthSeconds, "lengthSeconds", in: Self.lengthRangeSeconds)
                self.gainDecibels = try SoundscapeError.checked(gainDecibels, "gainDecibels", in: Self.gainRangeDecibels)
            }
        }

        /// One partial of a note: `amplitude·e^(−t/decaySeconds)·cos(2π·ratio·f·t)`.
        public struct Partial: Sendable, Equatable {
            /// Frequency as a ratio of the note's.
            public let ratio: Double
            /// Amplitude relative to the other partials.
            public let amplitude: Double
            /// Decay time constant, seconds.
            public let decaySeconds: Double

            /// The range of `ratio`.
            public static let ratioRange: ClosedRange<Double> = 0.25...16
            /// The range of `amplitude`.
            public static let amplitudeRange: ClosedRange<Double> = 0...1
            /// The range of `decaySeconds`.
            public static let decayRangeSeconds: ClosedRange<Double> = 0.01...10

            /// A partial, each number within its range.
            /// - Throws: `SoundscapeError` naming the field at fault.
            public init(ratio: Double, amplitude: Double, decaySeconds: Double) throws(SoundscapeError) {
                self.ratio = try SoundscapeError.checked(ratio, "ratio", in: Self.ratioRange)
                self.amplitude = try SoundscapeError.checked(amplitude, "amplitude", in: Self.amplitudeRange)
                self.decaySeconds = try SoundscapeError.checked(decaySeconds, "decaySeconds", in: Self.decayRangeSeconds)
            }
        }

        /// The notes of one phase kind's chime.
        public struct Chime: Sendable, Equatable {
            /// The notes' pitches in order, Hz.
            public let notesHz: [Double]
            /// Time from one note's onset to the next, seconds.
            public let noteSpacingSeconds: Double
            /// This chime's level relative to the others, dB.
            public let gainDecibels: Double

            /// The range of each note's pitch, Hz.
            public static let noteRangeHz: ClosedRange<Double> = 20...8000
            /// How many notes a chime may have.
            public static let noteCounts: ClosedRange<Int> = 1...4
            /// The range of `noteSpacingSeconds`.
            public static let spacingRangeSeconds: ClosedRange<Double> = 0...1
            /// The range of `gainDecibels`, dB.
            public static let gainRangeDecibels: ClosedRange<Double> = -40...0

            /// A chime, each number within its range (whether its notes fit a chime's length, `Cues` checks).
            /// - Throws: `SoundscapeError` naming the field at fault.
            public init(notesHz: [Double], noteSpacingSeconds: Double, gainDecibels: Double) throws(SoundscapeError) {
                self.notesHz = try SoundscapeError.checked(notesHz, "notesHz", in: Self.noteRangeHz, counts: Self.noteCounts)
                self.noteSpacingSeconds = try SoundscapeError.checked(noteSpacingSeconds, "noteSpacingSeconds", in: Self.spacingRangeSeconds)
                self.gainDecibels = try SoundscapeError.checked(gainDecibels, "gainDecibels", in: Self.gainRangeDecibels)
            }

            /// Refuses a chime whose last note would start past half of `lengthSeconds`, naming `field` (where
            /// the chime sits in `Cues`).
            func checkFits(lengthSeconds: Double, field: String) throws(SoundscapeError) {
                let lastOnset = Double(notesHz.count - 1) * noteSpacingSeconds
                guard lastOnset < lengthSeconds / 2 else {
                    throw SoundscapeError(field: "\(field).noteSpacingSeconds", reason: "the last note would start at \(SoundscapeError.text(lastOnset)) s, past half the chime's \(SoundscapeError.text(lengthSeconds)) s")
                }
            }
        }

        /// The range of `gainDecibels`, dB.
        public static let gainRangeDecibels: ClosedRange<Double> = -120...0
        /// The range of `attackSeconds`.
        public static let attackRangeSeconds: ClosedRange<Double> = 0.0005...0.1
        /// The range of `lengthSeconds`.
        public static let lengthRangeSeconds: ClosedRange<Double> = 0.1...5
        /// The range of `fadeOutSeconds` (at most half of `lengthSeconds` too).
        public static let fadeOutRangeSeconds: ClosedRange<Double> = 0.01...5
        /// How many partials a note may have.
        public static let partialCounts: ClosedRange<Int> = 1...6
        /// The range of `clipGainDecibels`, dB.
        public static let clipGainRangeDecibels: ClosedRange<Double> = -60...0
        /// The range of `duckDecibels`, dB.
        public static let duckRangeDecibels: ClosedRange<Double> = -30...0

        /// The cues, each number within its range, the fade at most half a chime, `partialCounts` partials, and
        /// every chime's last note starting before half a chime's length.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(
            gainDecibels: Double, attackSeconds: Double, lengthSeconds: Double, fadeOutSeconds: Double, partials: [Partial],
            inhale: Chime, hold: Chime, exhale: Chime, stage: Chime, tick: Tick, clipGainDecibels: Double, duckDecibels: Double
        ) throws(SoundscapeError) {
            self.gainDecibels = try SoundscapeError.checked(gainDecibels, "gainDecibels", in: Self.gainRangeDecibels)
            self.attackSeconds = try SoundscapeError.checked(attackSeconds, "attackSeconds", in: Self.attackRangeSeconds)
            self.lengthSeconds = try SoundscapeError.checked(lengthSeconds, "lengthSeconds", in: Self.lengthRangeSeconds)
            self.fadeOutSeconds = try SoundscapeError.checked(fadeOutSeconds, "fadeOutSeconds", in: Self.fadeOutRangeSeconds)
            guard fadeOutSeconds <= lengthSeconds / 2 else {
                throw SoundscapeError(field: "fadeOutSeconds", reason: "must be at most half of lengthSeconds (\(SoundscapeError.text(lengthSeconds)))")
            }
            guard Self.partialCounts.contains(partials.count) else {
                throw SoundscapeError(field: "partials", reason: "expected \(Self.partialCounts.lowerBound) to \(Self.partialCounts.upperBound) objects, found \(partials.count)")
            }
            self.partials = partials
            for (chime, field) in [(inhale, "inhale"), (hold, "hold"), (exhale, "exhale"), (stage, "stage")] {
                try chime.checkFits(lengthSeconds: lengthSeconds, field: field)
            }
            (self.inhale, self.hold, self.exhale, self.stage) = (inhale, hold, exhale, stage)
            self.tick = tick
            self.clipGainDecibels = try SoundscapeError.checked(clipGainDecibels, "clipGainDecibels", in: Self.clipGainRangeDecibels)
            self.duckDecibels = try SoundscapeError.checked(duckDecibels, "duckDecibels", in: Self.duckRangeDecibels)
        }

        /// The chime for a phase kind (both holds share one).
        public func chime(for kind: PhaseKind) -> Chime { chime(GuideEvent.ChimeKind(kind)) }

        /// The chime of a guide chime kind.
        public func chime(_ kind: GuideEvent.ChimeKind) -> Chime {
            switch kind {
            case .inhale: inhale
            case .hold: hold
            case .exhale: exhale
            case .stage: stage
            }
        }
    }
}
