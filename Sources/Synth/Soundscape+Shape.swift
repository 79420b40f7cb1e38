extension Soundscape {
    /// Hold tension (docs/sound-design.md § 6): the surf grows across each hold (×1.0 → ×2.5) while the tone
    /// stays put, then eases back after the hold instead of snapping.
    public struct HoldSwell: Sendable, Equatable, SoundscapeSection {
        /// The intensity reached at a hold's end (≥ 1).
        public let peak: Double
        /// How long the swell takes to ease back to 1 after a hold, seconds.
        public let releaseSeconds: Double

        /// The peak within 1…10, the release within 0.01…30 s.
        public static var fields: [SoundscapeField<Self>] {
            [SoundscapeField("peak", \.peak, in: 1...10), SoundscapeField("releaseSeconds", \.releaseSeconds, in: 0.01...30)]
        }

        /// A swell, each number within its range.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(peak: Double, releaseSeconds: Double) throws(SoundscapeError) {
            self.peak = peak
            self.releaseSeconds = releaseSeconds
            try checkFields()
        }
    }

    /// Calming (docs/sound-design.md § 6): modulation depth scales linearly from `start` to `end` over the
    /// session, never to 0 ("fully still looks frozen").
    public struct Calming: Sendable, Equatable, SoundscapeSection {
        /// The scale at the session's start.
        public let start: Double
        /// The scale at the session's end (> 0).
        public let end: Double

        /// Either scale within 0.01…1.
        public static var fields: [SoundscapeField<Self>] {
            [SoundscapeField("start", \.start, in: 0.01...1), SoundscapeField("end", \.end, in: 0.01...1)]
        }

        /// A calming, each scale within its range.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(start: Double, end: Double) throws(SoundscapeError) {
            self.start = start
            self.end = end
            try checkFields()
        }
    }

    /// How the sound begins and ends: a fade over the start of the first phase, and after the last phase a
    /// release then silence (docs/sound-design.md § 10: "stop, fade, 0.8 s of rest").
    public struct Envelope: Sendable, Equatable, SoundscapeSection {
        /// Fade-in length, seconds (shortened to the first phase's length; never 0, so the tone cannot click on).
        public let fadeInSeconds: Double
        /// Release after the last phase, seconds.
        public let releaseSeconds: Double
        /// Digital silence after the release, seconds.
        public let silenceSeconds: Double

        /// The longest tail (release + silence) nagi renders, seconds.
        public static let maximumTailSeconds = 15.0
        /// Each length with its range, seconds.
        public static var fields: [SoundscapeField<Self>] {
            [
                SoundscapeField("fadeInSeconds", \.fadeInSeconds, in: 0.01...60),
                SoundscapeField("releaseSeconds", \.releaseSeconds, in: 0.01...10),
                SoundscapeField("silenceSeconds", \.silenceSeconds, in: 0...5),
            ]
        }

        /// An envelope, each length within its range and the tail under `maximumTailSeconds`.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(fadeInSeconds: Double, releaseSeconds: Double, silenceSeconds: Double) throws(SoundscapeError) {
            self.fadeInSeconds = fadeInSeconds
            self.releaseSeconds = releaseSeconds
            self.silenceSeconds = silenceSeconds
            try checkFields()
            guard releaseSeconds + silenceSeconds < Self.maximumTailSeconds else {
                throw SoundscapeError(field: "silenceSeconds", reason: "release + silence must stay under \(SoundscapeError.text(Self.maximumTailSeconds)) s")
            }
        }
    }

    /// The output's safety net, a look-ahead true-peak limiter: identity below the knee, a smooth curve above it
    /// that never exceeds the ceiling, so the true peak stays under it whatever the mix does.
    public struct Limiter: Sendable, Equatable, SoundscapeSection {
        /// Where limiting begins, dBTP (no lower than `RenderPlan.widestKneeDecibels` under the ceiling: the
        /// limiter's smooth gain needs no wider knee).
        public let kneeDecibels: Double
        /// The highest output, dBFS (at most −1).
        public let ceilingDecibels: Double

        /// Either level within −40…−1 dB.
        public static var fields: [SoundscapeField<Self>] {
            [SoundscapeField("kneeDecibels", \.kneeDecibels, in: -40...(-1)), SoundscapeField("ceilingDecibels", \.ceilingDecibels, in: -40...(-1))]
        }

        /// A limiter, both levels within their range and the ceiling above the knee.
        /// - Throws: `SoundscapeError` naming the field at fault.
        public init(kneeDecibels: Double, ceilingDecibels: Double) throws(SoundscapeError) {
            self.kneeDecibels = kneeDecibels
            self.ceilingDecibels = ceilingDecibels
            try checkFields()
            guard ceilingDecibels > kneeDecibels else {
                throw SoundscapeError(field: "ceilingDecibels", reason: "must be above kneeDecibels (\(SoundscapeError.text(kneeDecibels)))")
            }
        }
    }
}
