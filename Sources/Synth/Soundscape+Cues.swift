import Breath

extension Soundscape {
    /// Soft chimes at phase starts, one per phase kind so a listener with closed eyes knows which began
    /// (inhale, hold, exhale). Each chime is a few notes of the same bell-like partials; it starts on the
    /// phase's first frame with a short attack ramp.
    public struct Cues: Sendable, Equatable, SoundscapeSection {
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
        public struct Tick: Sendable, Equatable, SoundscapeSection {
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

            /// Each number with its range: either pitch within 100…8000 Hz.
            public static var fields: [SoundscapeField<Self>] {
                [
                    SoundscapeField("highHz", \.highHz, in: 100...8000),
                    SoundscapeField("lowHz", \.lowHz, in: 100...8000),
                    SoundscapeField("decaySeconds", \.decaySeconds, in: 0.001...0.2),
                    SoundscapeField("lengthSeconds", \.lengthSeconds, in: 0.005...0.5),
                    SoundscapeField("gainDecibels", \.gainDecibels, in: -40...0),
                ]
            }

            /// A tick, each number within its range.
            /// - Throws: `SoundscapeError` naming the field at fault.
            public init(highHz: Double, lowHz: Double, decaySeconds: Double, lengthSeconds: Double, gainDecibels: Double) throws(SoundscapeError) {
                self.highHz = highHz
                self.lowHz = lowHz
                self.decaySeconds = decaySeconds
                self.lengthSeconds = lengthSeconds
                self.gainDecibels = gainDecibels
                try checkFields()
            }
        }

        /// One partial of a note: `amplitude·e^(−t/decaySeconds)·cos(2π·ratio·f·t)`.
        public struct Partial: Sendable, Equatable, SoundscapeSection {
            /// Frequency as a ratio of the note's.
            public let ratio: Double
            /// Amplitude relative to the other partials.
            public let amplitude: Double
            /// Decay time constant, seconds.
            public let decaySeconds: Double

            /// Each number with its range.
            public static var fields: [SoundscapeField<Self>] {
                [
                    SoundscapeField("ratio", \.ratio, in: 0.25...16),
                    SoundscapeField("amplitude", \.amplitude, in: 0...1),
                    SoundscapeField("decaySeconds", \.decaySeconds, in: 0.01...10),
                ]
            }

            /// A partial, each number within its range.
            /// - Throws: `SoundscapeError` naming the field at fault.
            public init(ratio: Double, amplitude: Double, decaySeconds: Double) throws(SoundscapeError) {
                self.ratio = ratio
                self.amplitude = amplitude
                self.decaySeconds = decaySeconds
                try checkFields()
            }
        }

        /// The notes of one phase kind's chime.
        public struct Chime: Sendable, Equatable, SoundscapeSection {
            /// The notes' pitches in order, Hz.
            public let notesHz: [Double]
            /// Time from one note's onset to the next, seconds.
            public let noteSpacingSeconds: Double
            /// This chime's level relative to the others, dB.
            public let gainDecibels: Double

            /// 1 to 4 notes within 20…8000 Hz, the spacing within 0…1 s, the gain within −40…0 dB.
            public static var fields: [SoundscapeField<Self>] {
                [
                    SoundscapeField("notesHz", \.notesHz, in: 20...8000, counts: 1...4),
                    SoundscapeField("noteSpacingSeconds", \.noteSpacingSeconds, in: 0...1),
                    SoundscapeField("gainDecibels", \.gainDecibels, in: -40...0),
                ]
            }

            /// A chime, each number within its range (whether its notes fit a chime's length, `Cues` checks).
            /// - Throws: `SoundscapeError` naming the field at fault.
            public init(notesHz: [Double], noteSpacingSeconds: Double, gainDecibels: Double) throws(SoundscapeError) {
                self.notesHz = notesHz
                self.noteSpacingSeconds = noteSpacingSeconds
                self.gainDecibels = gainDecibels
                try checkFields()
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

        /// How many partials a note may have.
        public static let partialCounts: ClosedRange<Int> = 1...6

        /// Each number with its range (`fadeOutSeconds` at most half of `lengthSeconds` too); the partials, chimes
        /// and tick are checked as themselves.
        public static var fields: [SoundscapeField<Self>] {
            [
                SoundscapeField("gainDecibels", \.gainDecibels, in: -120...0),
                SoundscapeField("attackSeconds", \.attackSeconds, in: 0.0005...0.1),
                SoundscapeField("lengthSeconds", \.lengthSeconds, in: 0.1...5),
                SoundscapeField("fadeOutSeconds", \.fadeOutSeconds, in: 0.01...5),
                SoundscapeField("clipGainDecibels", \.clipGainDecibels, in: -60...0),
                SoundscapeField("duckDecibels", \.duckDecibels, in: -30...0),
            ]
        }

        /// The cues, each number within its range, the fade at most half a chime, `partialCounts` partials, and
        /// every chime's last note starting before half a chime's length.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(
            gainDecibels: Double, attackSeconds: Double, lengthSeconds: Double, fadeOutSeconds: Double, partials: [Partial],
            inhale: Chime, hold: Chime, exhale: Chime, stage: Chime, tick: Tick, clipGainDecibels: Double, duckDecibels: Double
        ) throws(SoundscapeError) {
            self.gainDecibels = gainDecibels
            self.attackSeconds = attackSeconds
            self.lengthSeconds = lengthSeconds
            self.fadeOutSeconds = fadeOutSeconds
            self.partials = partials
            (self.inhale, self.hold, self.exhale, self.stage) = (inhale, hold, exhale, stage)
            self.tick = tick
            self.clipGainDecibels = clipGainDecibels
            self.duckDecibels = duckDecibels
            try checkFields()
            guard fadeOutSeconds <= lengthSeconds / 2 else {
                throw SoundscapeError(field: "fadeOutSeconds", reason: "must be at most half of lengthSeconds (\(SoundscapeError.text(lengthSeconds)))")
            }
            guard Self.partialCounts.contains(partials.count) else {
                throw SoundscapeError(field: "partials", reason: "expected \(Self.partialCounts.lowerBound) to \(Self.partialCounts.upperBound) objects, found \(partials.count)")
            }
            for (chime, field) in [(inhale, "inhale"), (hold, "hold"), (exhale, "exhale"), (stage, "stage")] {
                try chime.checkFits(lengthSeconds: lengthSeconds, field: field)
            }
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
