import Breath
import NagiMath

/// The renderer's control-rate parameters as pure functions of the frame index, public so a plot draws the
/// very values the sound follows. The renderer evaluates these same functions at its control points (see
/// `ControlSequencer`) and interpolates between them; nothing here keeps state.
///
/// Conventions: `frame` counts from the schedule's frame 0; frames past the session keep the last phase's
/// level; decibels are relative gains before the master gain.
public struct ControlCurves: Sendable {
    /// The breathing schedule the sound follows.
    public let schedule: Schedule
    /// The sound design.
    public let soundscape: Soundscape
    /// Frames of fade-in at the session's start (the preset's fade, at most the first phase's length).
    public let fadeInFrameCount: Int64
    /// Frames of release after the last phase.
    public let releaseFrameCount: Int64
    /// Frames of digital silence after the release.
    public let silenceFrameCount: Int64

    /// For each phase, the end frame of the latest non-empty hold before it (`noHold` if none), so the swell
    /// after a hold is a pure function of the frame.
    private let recentHoldEnd: [Int64]
    private let swellReleaseFrames: Double
    private let log2PitchRatio: Double
    private let shimmerRadiansPerFrame: Double
    private let layerRadiansPerFrame: [Double]
    private static let noHold = Int64.min

    public init(schedule: Schedule, soundscape: Soundscape) {
        self.schedule = schedule
        self.soundscape = soundscape
        let rate = Double(schedule.sampleRate)
        let firstPhaseFrames = schedule.phases.first.map { max(1, $0.frameCount) } ?? 1
        fadeInFrameCount = max(1, min(Int64((soundscape.envelope.fadeInSeconds * rate).rounded()), firstPhaseFrames))
        releaseFrameCount = Self.releaseFrameCount(envelope: soundscape.envelope, sampleRate: schedule.sampleRate)
        silenceFrameCount = Self.silenceFrameCount(envelope: soundscape.envelope, sampleRate: schedule.sampleRate)
        var holdEnds: [Int64] = []
        holdEnds.reserveCapacity(schedule.phases.count)
        var lastHoldEnd = Self.noHold
        for phase in schedule.phases {
            holdEnds.append(lastHoldEnd)
            if phase.kind.isHold && phase.frameCount > 0 { lastHoldEnd = phase.endFrame }
        }
        recentHoldEnd = holdEnds
        swellReleaseFrames = max(1, soundscape.holdSwell.releaseSeconds * rate)
        log2PitchRatio = log2(soundscape.tone.highFrequencyHz / soundscape.tone.lowFrequencyHz)
        let shimmer = soundscape.shimmer
        shimmerRadiansPerFrame = 2 * Double.pi * shimmer.speedPointsPerSecond / (shimmer.wavelengthPoints * rate)
        layerRadiansPerFrame = soundscape.water.layers.map { $0.rateRadiansPerSecond / rate }
    }

    /// Frames per second.
    public var sampleRate: Int { schedule.sampleRate }

    /// Frames of release after the last phase under `envelope` (never 0).
    public static func releaseFrameCount(envelope: Soundscape.Envelope, sampleRate: Int) -> Int64 {
        max(1, Int64((envelope.releaseSeconds * Double(sampleRate)).rounded()))
    }

    /// Frames of digital silence after the release under `envelope`.
    public static func silenceFrameCount(envelope: Soundscape.Envelope, sampleRate: Int) -> Int64 {
        Int64((envelope.silenceSeconds * Double(sampleRate)).rounded())
    }

    /// The whole render: the schedule, the release and the closing silence.
    public var totalFrameCount: Int64 { schedule.totalFrames + releaseFrameCount + silenceFrameCount }

    // MARK: Level and the tone

    /// The horizon level L in [0, 1] (0 fully exhaled, 1 fully inhaled).
    public func level(at frame: Int64) -> Double {
        schedule.phases.isEmpty ? 0 : schedule.level(at: frame, inPhase: schedule.phaseIndex(containing: frame))
    }

    /// The level inside a known phase (the renderer tracks the phase block by block).
    func level(at frame: Int64, inPhase index: Int) -> Double {
        schedule.level(at: frame, inPhase: index)
    }

    /// The main tone's pitch, Hz: `low·(high/low)^L`, before the shimmer's vibrato.
    public func pitchHz(at frame: Int64) -> Double { pitchHz(level: level(at: frame)) }

    /// The main tone's pitch at level L, Hz.
    public func pitchHz(level: Double) -> Double { pitchHz(level: level, vibratoCents: 0) }

    /// The main tone's pitch at level L with the shimmer's vibrato, Hz.
    public func pitchHz(level: Double, vibratoCents: Double) -> Double {
        soundscape.tone.lowFrequencyHz * exp2(level * log2PitchRatio + vibratoCents / 1200)
    }

    /// The main tone's own gain, dB: interpolated by L between the exhaled and inhaled gains (before the
    /// shimmer's tremolo, the session decay, the envelope and the master gain).
    public func toneGainDecibels(at frame: Int64) -> Double { toneGainDecibels(level: level(at: frame)) }

    /// The main tone's own gain at level L, dB.
    public func toneGainDecibels(level: Double) -> Double {
        let tone = soundscape.tone
        return tone.gainDecibelsExhaled + (tone.gainDecibelsInhaled - tone.gainDecibelsExhaled) * level
    }

    /// The sky timbre's share in the main tone (0 dark water … 1 bright sky): it brightens as L rises.
    public func skyAmount(at frame: Int64) -> Double { skyAmount(level: level(at: frame)) }

    /// The sky timbre's share at level L.
    public func skyAmount(level: Double) -> Double {
        let tone = soundscape.tone
        return tone.skyExhaled + (tone.skyInhaled - tone.skyExhaled) * level
    }

    // MARK: Modulation: swell, calming, shimmer, ripples

    /// The hold swell: 1 outside holds, rising (a smoothstep) to the preset's peak across each hold, easing back to 1
    /// over the swell's release after it. Continuous everywhere. It scales the beds' amplitude (heard: the surf
    /// grows); the calming does not shrink it.
    public func holdSwell(at frame: Int64) -> Double {
        schedule.phases.isEmpty ? 1 : holdSwell(at: frame, inPhase: schedule.phaseIndex(containing: frame))
    }

    /// The hold swell inside a known phase.
    func holdSwell(at frame: Int64, inPhase index: Int) -> Double {
        // The fields in place, not a copy of the phase (whose strings a copy retains), as in `Schedule.level`.
        let startFrame = schedule.phases[index].startFrame
        guard schedule.phases[index].kind.isHold && schedule.phases[index].endFrame > startFrame else {
            return swellAfterHolds(at: frame, phaseIndex: index)
        }
        let start = swellAfterHolds(at: startFrame, phaseIndex: index)
        // A smoothstep rise: the swell gathers through the hold and is near its peak over the last part of it.
        return start + (soundscape.holdSwell.peak - start) * Self.smoothstep(schedule.progress(at: frame, inPhase: index))
    }

    /// What is left of the latest hold's swell at `frame`, easing from the peak back to 1.
    private func swellAfterHolds(at frame: Int64, phaseIndex index: Int) -> Double {
        let holdEnd = recentHoldEnd[index]
        guard holdEnd != Self.noHold else { return 1 }
        let elapsed = Double(frame - holdEnd)
        guard elapsed < swellReleaseFrames else { return 1 }
        let remaining = 1 - Self.smoothstep(elapsed / swellReleaseFrames)
        return 1 + (soundscape.holdSwell.peak - 1) * remaining
    }

    /// The session calming: linear from the preset's start scale to its end scale over the session, never 0.
    public func calming(at frame: Int64) -> Double {
        let calming = soundscape.calming
        return calming.start + (calming.end - calming.start) * schedule.sessionProgress(at: frame)
    }

    /// What the plot's modulation panel draws: the hold swell (the beds' amplitude factor, heard as the surf
    /// growing) × the calming (the ripples' depth, heard as the surf stilling over the session).
    public func modulationEnvelope(at frame: Int64) -> Double { holdSwell(at: frame) * calming(at: frame) }

    /// The horizon wave at `frame`: (sin ωt, cos ωt), ω from the shimmer's speed and wavelength. The sine drives
    /// the vibrato; the cosine, the same wave a quarter wavelength along, drives the tremolo.
    public func shimmerWave(at frame: Int64) -> (sine: Double, cosine: Double) {
        let angle = shimmerRadiansPerFrame * Double(frame)
        return (sin(angle), cos(angle))
    }

    /// The shimmer's vibrato, cents.
    public func vibratoCents(at frame: Int64) -> Double {
        vibratoCents(waveSine: shimmerWave(at: frame).sine, calming: calming(at: frame))
    }

    /// The vibrato for a wave value and calming scale, cents.
    public func vibratoCents(waveSine: Double, calming: Double) -> Double {
        let shimmer = soundscape.shimmer
        return shimmer.amplitudePoints * calming * shimmer.vibratoCentsPerPoint * waveSine
    }

    /// The shimmer's tremolo, dB.
    public func tremoloDecibels(at frame: Int64) -> Double {
        tremoloDecibels(waveCosine: shimmerWave(at: frame).cosine, calming: calming(at: frame))
    }

    /// The tremolo for a wave value and calming scale, dB.
    public func tremoloDecibels(waveCosine: Double, calming: Double) -> Double {
        let shimmer = soundscape.shimmer
        return shimmer.amplitudePoints * calming * shimmer.tremoloDecibelsPerPoint * waveCosine
    }

    /// The ripple layers at `frame`: `ripple` = Σ weight·depth·sin(rate·t + phase) (signed, points) and
    /// `rise` = Σ weight·depth·(1 + sin)/2 (never negative, points), before the modulation envelope.
    public func rippleLayers(at frame: Int64) -> (ripple: Double, rise: Double) {
        var ripple = 0.0
        var rise = 0.0
        let time = Double(frame)
        for (layer, radiansPerFrame) in zip(soundscape.water.layers, layerRadiansPerFrame) {
            let wave = sin(radiansPerFrame * time + layer.phaseRadians)
            let scale = layer.weight * layer.depthPoints
            ripple += scale * wave
            rise += scale * (1 + wave) * 0.5
        }
        return (ripple, rise)
    }

    /// The beds' level as heard, as a factor of their base gain: the hold swell (the surf itself grows through
    /// each hold, ×1 → ×peak, and settles after it; calming does not shrink it) times the water's ripple
    /// level. What the plot's modulation panel draws as the surf.
    public func surfGain(at frame: Int64) -> Double { holdSwell(at: frame) * waterLevel(at: frame) }

    /// The water bed's ripple level as a factor of its base gain: 1 + levelPerPoint·calming·rise.
    public func waterLevel(at frame: Int64) -> Double {
        waterLevel(rise: rippleLayers(at: frame).rise, envelope: calming(at: frame))
    }

    /// The water level for a layer rise and modulation envelope.
    public func waterLevel(rise: Double, envelope: Double) -> Double {
        1 + soundscape.water.levelPerPoint * envelope * rise
    }

    /// The water's bright share (0…1): follows L and the signed ripple.
    public func waterBrightness(at frame: Int64) -> Double {
        waterBrightness(level: level(at: frame), ripple: rippleLayers(at: frame).ripple, envelope: calming(at: frame))
    }

    /// The water's bright share for a level, signed ripple and modulation envelope.
    public func waterBrightness(level: Double, ripple: Double, envelope: Double) -> Double {
        let water = soundscape.water
        let share = water.brightnessExhaled + (water.brightnessInhaled - water.brightnessExhaled) * level
            + water.brightnessPerPoint * envelope * ripple
        return min(1, max(0, share))
    }

    // MARK: Trail

    /// The pad's pitch for a lagged level, Hz.
    public func trailPitchHz(laggedLevel: Double) -> Double {
        soundscape.trail.pitchRatio * pitchHz(level: laggedLevel)
    }

    /// The pad's own gain for a lagged level, dB.
    public func trailGainDecibels(laggedLevel: Double) -> Double {
        let trail = soundscape.trail
        return trail.gainDecibelsExhaled + (trail.gainDecibelsInhaled - trail.gainDecibelsExhaled) * laggedLevel
    }

    /// The one-pole lag's step over `frames` frames: `lagged += (L − lagged)·coefficient`.
    public func trailLagCoefficient(frames: Int) -> Double {
        1 - exp(-Double(frames) / (soundscape.trail.lagSeconds * Double(sampleRate)))
    }

    // MARK: Session level and envelope

    /// The session's level decay, dB: 0 at the start, falling linearly to −sessionDecayDecibels at the end.
    public func sessionGainDecibels(at frame: Int64) -> Double {
        -soundscape.sessionDecayDecibels * schedule.sessionProgress(at: frame)
    }

    /// The fade-in gain (0 at frame 0, 1 once the fade is over), a smoothstep.
    public func fadeInGain(at frame: Int64) -> Double {
        frame >= fadeInFrameCount ? 1 : Self.smoothstep(Double(max(0, frame)) / Double(fadeInFrameCount))
    }

    /// The release gain: 1 through the session, a smoothstep down to 0 over the release, then 0.
    public func releaseGain(at frame: Int64) -> Double {
        let elapsed = frame - schedule.totalFrames
        if elapsed <= 0 { return 1 }
        if elapsed >= releaseFrameCount { return 0 }
        return 1 - Self.smoothstep(Double(elapsed) / Double(releaseFrameCount))
    }

    /// Fade-in × release: the envelope of every voice but the cues (a cue marks the start at full level).
    public func envelopeGain(at frame: Int64) -> Double { fadeInGain(at: frame) * releaseGain(at: frame) }

    /// The first frame of the closing silence.
    public var silenceStartFrame: Int64 { schedule.totalFrames + releaseFrameCount }

    /// 3u² − 2u³ on [0, 1]: starts and ends flat, so ramps built on it never kink.
    static func smoothstep(_ u: Double) -> Double {
        let clamped = min(1, max(0, u))
        return clamped * clamped * (3 - 2 * clamped)
    }
}
