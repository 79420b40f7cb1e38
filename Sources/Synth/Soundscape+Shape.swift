import Breath
import NagiDocuments

extension Soundscape {
    /// Hold tension (docs/sound-design.md § 6): the surf grows across each hold (×1.0 → ×2.5) while the tone
    /// stays put, then eases back after the hold instead of snapping.
    public struct HoldSwell: Sendable, Equatable {
        /// The intensity reached at a hold's end (≥ 1).
        public let peak: Double
        /// How long the swell takes to ease back to 1 after a hold, seconds.
        public let releaseSeconds: Double

        init(_ fields: JSONFields) throws(ContentError) {
            try fields.rejectUnknownKeys(allowed: ["peak", "releaseSeconds"])
            peak = try fields.requiredNumber("peak", in: 1...10)
            releaseSeconds = try fields.requiredNumber("releaseSeconds", in: 0.01...30)
        }
    }

    /// Calming (docs/sound-design.md § 6): modulation depth scales linearly from `start` to `end` over the
    /// session, never to 0 ("fully still looks frozen").
    public struct Calming: Sendable, Equatable {
        /// The scale at the session's start.
        public let start: Double
        /// The scale at the session's end (> 0).
        public let end: Double

        init(_ fields: JSONFields) throws(ContentError) {
            try fields.rejectUnknownKeys(allowed: ["start", "end"])
            start = try fields.requiredNumber("start", in: 0.01...1)
            end = try fields.requiredNumber("end", in: 0.01...1)
        }
    }

    /// How the sound begins and ends: a fade over the start of the first phase, and after the last phase a
    /// release then silence (docs/sound-design.md § 10: "stop, fade, 0.8 s of rest").
    public struct Envelope: Sendable, Equatable {
        /// Fade-in length, seconds (shortened to the first phase's length; never 0, so the tone cannot click on).
        public let fadeInSeconds: Double
        /// Release after the last phase, seconds.
        public let releaseSeconds: Double
        /// Digital silence after the release, seconds.
        public let silenceSeconds: Double

        /// The longest tail (release + silence) nagi renders, seconds.
        public static let maximumTailSeconds = 15.0

        init(_ fields: JSONFields) throws(ContentError) {
            try fields.rejectUnknownKeys(allowed: ["fadeInSeconds", "releaseSeconds", "silenceSeconds"])
            fadeInSeconds = try fields.requiredNumber("fadeInSeconds", in: 0.01...60)
            releaseSeconds = try fields.requiredNumber("releaseSeconds", in: 0.01...10)
            silenceSeconds = try fields.requiredNumber("silenceSeconds", in: 0...5)
            guard releaseSeconds + silenceSeconds < Self.maximumTailSeconds else {
                throw fields.error("silenceSeconds", "release + silence must stay under \(JSONFields.text(Self.maximumTailSeconds)) s")
            }
        }
    }

    /// The output's safety net, a look-ahead true-peak limiter: identity below the knee, a smooth curve above it
    /// that never exceeds the ceiling, so the true peak stays under it whatever the mix does.
    public struct Limiter: Sendable, Equatable {
        /// Where limiting begins, dBTP (no lower than `RenderPlan.widestKneeDecibels` under the ceiling: the
        /// limiter's smooth gain needs no wider knee).
        public let kneeDecibels: Double
        /// The highest output, dBFS (at most −1).
        public let ceilingDecibels: Double

        init(_ fields: JSONFields) throws(ContentError) {
            try fields.rejectUnknownKeys(allowed: ["kneeDecibels", "ceilingDecibels"])
            kneeDecibels = try fields.requiredNumber("kneeDecibels", in: -40...(-1))
            ceilingDecibels = try fields.requiredNumber("ceilingDecibels", in: -40...(-1))
            guard ceilingDecibels > kneeDecibels else {
                throw fields.error("ceilingDecibels", "must be above kneeDecibels (\(JSONFields.text(kneeDecibels)))")
            }
        }
    }
}
