import Breath

/// The renderer's control values at control points, read from `ControlCurves` (the same functions a plot
/// draws) at two rates, both on absolute frame multiples so the values depend on the frame index alone:
///
/// - fast points every control block: the breath level L and what the ear follows most closely from it,
///   the tone's pitch, its timbre and the water's brightness;
/// - slow points every `slowFrames`: every gain and what moves on scales of 0.2 s and more (ripple
///   layers, shimmer wave, hold swell, calming, session decay, fade-in and release, the trail's lag),
///   interpolated linearly to each fast point.
///
/// Sampling the slow curves every 10 ms moves no value audibly (the fastest, the 0.5 Hz shimmer, is
/// reproduced to 10⁻⁴ of its depth; a gain following L to 10⁻⁵ dB) and keeps most transcendental functions
/// off the fast path.
struct ControlSequencer {
    /// The values at one control point; the renderer interpolates linearly between consecutive points.
    struct Point {
        /// Tone phase increment, cycles per frame.
        var toneIncrement = 0.0
        /// The sky timbre's share.
        var sky = 0.0
        var toneGain = 0.0
        /// Trail phase increment, cycles per frame.
        var trailIncrement = 0.0
        var trailGain = 0.0
        /// Gains of the dark and bright water loops.
        var darkGain = 0.0
        var brightGain = 0.0
        var rainGain = 0.0
        /// The gain of every guide sound (chimes, ticks, clips): the chimes' base gain, the cue volume, the
        /// session decay and the release (no fade-in: a cue marks the start at full level).
        var guideGain = 0.0
        /// The user's recording's gain (its loudness match, the envelope, the session decay, the swell).
        var bedGain = 0.0
    }

    /// The slow values at one slow point, held as one vector so that a fast point interpolates them all in
    /// one step instead of field by field.
    private struct Slow {
        /// Where each value sits in `values`.
        enum Lane: Int {
            /// The ripple layers' signed sum, points.
            case ripple
            /// The modulation depth: the session's calming.
            case modulation
            case vibratoCents, toneGain, trailIncrement, trailGain
            /// The water bed's whole gain before the dark/bright split.
            case waterGain
            case rainGain, guideGain
            /// The user's recording's gain.
            case bedGain
        }

        private(set) var values = SIMD16<Double>()

        subscript(lane: Lane) -> Double {
            get { values[lane.rawValue] }
            set { values[lane.rawValue] = newValue }
        }

        func interpolated(to other: Slow, fraction: Double) -> Slow {
            Slow(values: values + (other.values - values) * fraction)
        }
    }

    /// Linear on/off factors and base gains of the voices.
    struct VoiceGains {
        var tone: Double
        var trail: Double
        var water: Double
        var rain: Double
        /// The chimes' base gain times the cue volume.
        var guide: Double
        /// The user's recording's loudness-matching gain, divided by the master gain (which `common` brings).
        var bed: Double = 0
    }

    let curves: ControlCurves
    private let gains: VoiceGains
    private let masterDecibels: Double
    private let sampleRate: Double
    private let slowFrames: Int64
    private let inverseSlowFrames: Double
    /// The trail lag's step per slow point.
    private let lagCoefficient: Double
    private let phaseEndFrames: [Int64]
    private var fastPhaseIndex = 0
    private var slowPhaseIndex = 0
    private var laggedLevel: Double
    /// The slow point at or before the last frame asked for; −1 before the first.
    private var slowIndex: Int64 = -1
    private var slowStart = Slow()
    private var slowEnd = Slow()

    init(curves: ControlCurves, gains: VoiceGains, slowFrames: Int) {
        self.curves = curves
        self.gains = gains
        masterDecibels = curves.soundscape.masterGainDecibels
        sampleRate = Double(curves.sampleRate)
        self.slowFrames = Int64(slowFrames)
        inverseSlowFrames = 1 / Double(slowFrames)
        lagCoefficient = curves.trailLagCoefficient(frames: slowFrames)
        phaseEndFrames = curves.schedule.phases.map(\.endFrame)
        laggedLevel = curves.level(at: 0)
        slowEnd = slow(at: 0, advanceLag: false)
    }

    /// The control values at `frame`. Frames must not decrease from call to call.
    mutating func point(at frame: Int64) -> Point {
        // frame / slowFrames, found by stepping (frames only move forward) instead of dividing.
        while (slowIndex + 1) * slowFrames <= frame {
            slowIndex += 1
            slowStart = slowEnd
            slowEnd = slow(at: (slowIndex + 1) * slowFrames, advanceLag: true)
        }
        let slow = slowStart.interpolated(to: slowEnd, fraction: Double(frame - slowIndex * slowFrames) * inverseSlowFrames)
        advance(&fastPhaseIndex, to: frame)
        let level = phaseEndFrames.isEmpty ? 0 : curves.level(at: frame, inPhase: fastPhaseIndex)
        var point = Point()
        point.toneIncrement = curves.pitchHz(level: level, vibratoCents: slow[.vibratoCents]) / sampleRate
        point.sky = curves.skyAmount(level: level)
        point.toneGain = slow[.toneGain]
        point.trailIncrement = slow[.trailIncrement]
        point.trailGain = slow[.trailGain]
        let brightness = curves.waterBrightness(level: level, ripple: slow[.ripple], envelope: slow[.modulation])
        point.darkGain = slow[.waterGain] * (1 - brightness)
        point.brightGain = slow[.waterGain] * brightness
        point.rainGain = slow[.rainGain]
        point.guideGain = slow[.guideGain]
        point.bedGain = slow[.bedGain]
        return point
    }

    /// Moves a tracked phase index forward to the phase sounding at `frame` (zero-length phases skipped).
    private func advance(_ phaseIndex: inout Int, to frame: Int64) {
        while phaseIndex + 1 < phaseEndFrames.count && phaseEndFrames[phaseIndex] <= frame { phaseIndex += 1 }
    }

    /// The slow values at `frame`; `advanceLag` steps the trail's lag from the previous slow point.
    private mutating func slow(at frame: Int64, advanceLag: Bool) -> Slow {
        advance(&slowPhaseIndex, to: frame)
        let hasPhases = !phaseEndFrames.isEmpty
        let level = hasPhases ? curves.level(at: frame, inPhase: slowPhaseIndex) : 0
        let swell = hasPhases ? curves.holdSwell(at: frame, inPhase: slowPhaseIndex) : 1
        let calming = curves.calming(at: frame)
        if advanceLag { laggedLevel += (level - laggedLevel) * lagCoefficient }
        let layers = curves.rippleLayers(at: frame)
        let wave = curves.shimmerWave(at: frame)
        let common = Decibels.gain(curves.sessionGainDecibels(at: frame) + masterDecibels)
        let scale = common * curves.envelopeGain(at: frame)
        var slow = Slow()
        slow[.ripple] = layers.ripple
        // The ripples' depth calms with the session; the swell raises the beds' amplitude instead (below).
        slow[.modulation] = calming
        slow[.vibratoCents] = curves.vibratoCents(waveSine: wave.sine, calming: calming)
        let tremolo = curves.tremoloDecibels(waveCosine: wave.cosine, calming: calming)
        slow[.toneGain] = gains.tone * Decibels.gain(curves.toneGainDecibels(level: level) + tremolo) * scale
        slow[.trailIncrement] = curves.trailPitchHz(laggedLevel: laggedLevel) / sampleRate
        slow[.trailGain] = gains.trail * Decibels.gain(curves.trailGainDecibels(laggedLevel: laggedLevel)) * scale
        // The hold swell raises the beds themselves (not only the ripples' depth): the surf is heard to grow.
        slow[.waterGain] = gains.water * curves.waterLevel(rise: layers.rise, envelope: calming) * swell * scale
        slow[.rainGain] = gains.rain * swell * scale
        slow[.guideGain] = gains.guide * common * curves.releaseGain(at: frame)
        // A user's bed lives like the rain: it fades in and out with the session, calms with its decay, swells in holds.
        slow[.bedGain] = gains.bed * swell * scale
        return slow
    }
}
