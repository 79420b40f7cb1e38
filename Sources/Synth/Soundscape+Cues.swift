import Breath
import NagiDocuments

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

            init(_ fields: JSONFields) throws(ContentError) {
                try fields.rejectUnknownKeys(allowed: ["highHz", "lowHz", "decaySeconds", "lengthSeconds", "gainDecibels"])
                highHz = try fields.requiredNumber("highHz", in: 100...8000)
                lowHz = try fields.requiredNumber("lowHz", in: 100...8000)
                decaySeconds = try fields.requiredNumber("decaySeconds", in: 0.001...0.2)
                lengthSeconds = try fields.requiredNumber("lengthSeconds", in: 0.005...0.5)
                gainDecibels = try fields.requiredNumber("gainDecibels", in: -40...0)
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

            init(_ fields: JSONFields) throws(ContentError) {
                try fields.rejectUnknownKeys(allowed: ["ratio", "amplitude", "decaySeconds"])
                ratio = try fields.requiredNumber("ratio", in: 0.25...16)
                amplitude = try fields.requiredNumber("amplitude", in: 0...1)
                decaySeconds = try fields.requiredNumber("decaySeconds", in: 0.01...10)
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

            init(_ fields: JSONFields, lengthSeconds: Double) throws(ContentError) {
                try fields.rejectUnknownKeys(allowed: ["notesHz", "noteSpacingSeconds", "gainDecibels"])
                notesHz = try fields.requiredNumbers("notesHz", in: 20...8000, counts: 1...4)
                noteSpacingSeconds = try fields.requiredNumber("noteSpacingSeconds", in: 0...1)
                gainDecibels = try fields.requiredNumber("gainDecibels", in: -40...0)
                let lastOnset = Double(notesHz.count - 1) * noteSpacingSeconds
                guard lastOnset < lengthSeconds / 2 else {
                    throw fields.error("noteSpacingSeconds", "the last note would start at \(JSONFields.text(lastOnset)) s, past half the chime's \(JSONFields.text(lengthSeconds)) s")
                }
            }
        }

        init(_ fields: JSONFields) throws(ContentError) {
            try fields.rejectUnknownKeys(allowed: [
                "gainDecibels", "attackSeconds", "lengthSeconds", "fadeOutSeconds", "partials", "inhale", "hold", "exhale",
                "stage", "tick", "clipGainDecibels", "duckDecibels",
            ])
            gainDecibels = try fields.requiredNumber("gainDecibels", in: -120...0)
            attackSeconds = try fields.requiredNumber("attackSeconds", in: 0.0005...0.1)
            lengthSeconds = try fields.requiredNumber("lengthSeconds", in: 0.1...5)
            fadeOutSeconds = try fields.requiredNumber("fadeOutSeconds", in: 0.01...5)
            guard fadeOutSeconds <= lengthSeconds / 2 else {
                throw fields.error("fadeOutSeconds", "must be at most half of lengthSeconds (\(JSONFields.text(lengthSeconds)))")
            }
            var partials: [Partial] = []
            for partial in try fields.requiredObjects("partials", counts: 1...6) {
                partials.append(try Partial(partial))
            }
            self.partials = partials
            inhale = try Chime(fields.requiredObject("inhale"), lengthSeconds: lengthSeconds)
            hold = try Chime(fields.requiredObject("hold"), lengthSeconds: lengthSeconds)
            exhale = try Chime(fields.requiredObject("exhale"), lengthSeconds: lengthSeconds)
            stage = try Chime(fields.requiredObject("stage"), lengthSeconds: lengthSeconds)
            tick = try Tick(fields.requiredObject("tick"))
            clipGainDecibels = try fields.requiredNumber("clipGainDecibels", in: -60...0)
            duckDecibels = try fields.requiredNumber("duckDecibels", in: -30...0)
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
