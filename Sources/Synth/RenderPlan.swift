import Breath
import NagiMath

/// The compile step of a render (Faust's `instanceConstants`): everything fixed before the first sample —
/// the control curves, the guide's events and tables, the noise beds, the kernel's shaping polynomials, the
/// limiter, the voices' base gains and peak bounds — and the exact number of frames the render writes.
/// Immutable once built (its tables are written only while it compiles), so one plan can feed renderers on
/// several threads; a `Renderer` pulls samples from one.
public final class RenderPlan: Sendable {
    /// The breathing schedule.
    public let schedule: Schedule
    /// The settings it was built from.
    public let settings: RenderSettings
    /// The control curves the sound follows (the same values a plot draws).
    public let curves: ControlCurves
    /// Where the guide's sounds go.
    public let guide: GuidePlan
    /// Frames the render writes: the lead-in, the schedule's, the release, the ending and the closing silence,
    /// exactly (`guide.framing`).
    public let totalFrameCount: Int64

    let waterLoop: NoiseLoop
    let rainLoop: NoiseLoop?
    let constants: SynthKernel.Constants
    /// The output stage's true-peak knee and ceiling: the light part of the plan, bound to the loudness gain
    /// (`withLoudnessGain`).
    let limiter: LimiterLevels
    /// The loudness gain as a factor (1 without one).
    let outputGain: Float
    /// What the kernel does with the beat.
    let beatMode: SynthKernel.BeatMode
    let gains: ControlSequencer.VoiceGains
    let budget: PeakBudget
    /// The chimes' tables and placements (they ring out; no ducking).
    let chimes: (tables: [FloatBuffer], entries: [ClipTrack.Entry])
    /// The ticks' tables and placements (soft; no ducking).
    let ticks: (tables: [FloatBuffer], entries: [ClipTrack.Entry])
    /// The spoken and cue-pack clips' tables and placements (cut at boundaries; the beds duck under them).
    let clips: (tables: [FloatBuffer], entries: [ClipTrack.Entry])
    let duckShape: BedDucking.Shape
    /// The lead-in's and the ending's sounds at their base gains, and bound to the output stage.
    let framingSource: FramingTrack
    let framing: FramingTrack

    /// The linear true-peak levels of the output stage's limiter (`TruePeakLimiter`).
    struct LimiterLevels {
        /// Where limiting begins.
        var knee: Float
        /// What the output stays under.
        var ceiling: Float
    }

    /// The largest magnitude each fused voice's unit-gain signal reaches, so a stretch's peak is bounded by
    /// Σ gain·peak without rendering it.
    struct PeakBudget {
        var tone: Double
        var trail: Double
        /// Water and rain per unit gain in the louder channel (mid + width·side).
        var water: Double
        var rain: Double
    }

    /// The exact frame count a render of `schedule` in `soundscape` writes, without building the rest.
    public static func totalFrameCount(schedule: Schedule, soundscape: Soundscape) -> Int64 {
        ControlCurves(schedule: schedule, soundscape: soundscape).totalFrameCount
    }

    /// The exact frame count a render of `schedule` under `settings` writes, its countdown and ending included.
    public static func totalFrameCount(schedule: Schedule, settings: RenderSettings) -> Int64 {
        SessionFraming(schedule: schedule, settings: settings).totalFrameCount
    }

    /// Compiles a render of `schedule` under `settings`; the guide reads each phase's words, round and stage
    /// from the phases unless `text` (parallel to them) replaces them. `curves`, when given, must be the
    /// curves of `schedule` in `settings.soundscape` (built once by a caller that needed them first).
    public init(schedule: Schedule, settings: RenderSettings, text: [PhaseGuideText]? = nil, curves: ControlCurves? = nil) {
        precondition(settings.channelCount == 1 || settings.channelCount == 2, "channelCount must be 1 or 2, not \(settings.channelCount)")
        let soundscape = settings.soundscape
        let voices = settings.voices
        let rate = schedule.sampleRate
        let blockFrames = Renderer.controlBlockFrames
        self.schedule = schedule
        self.settings = settings
        let curves = curves ?? ControlCurves(schedule: schedule, soundscape: soundscape)
        self.curves = curves
        guide = GuidePlan(schedule: schedule, settings: settings, text: text)
        totalFrameCount = guide.framing.totalFrameCount

        waterLoop = NoiseLoop.water(soundscape.water, sampleRate: rate, seed: settings.seed, padding: blockFrames)
        rainLoop = soundscape.rain.map { NoiseLoop.rain($0, sampleRate: rate, seed: settings.seed, padding: blockFrames) }

        // Harmonics that would pass 0.45·rate at the highest pitch (vibrato included) are dropped.
        let nyquistLimit = 0.45 * Double(rate)
        let shimmer = soundscape.shimmer
        let highestTone = soundscape.tone.highFrequencyHz * exp2(shimmer.amplitudePoints * shimmer.vibratoCentsPerPoint / 1200)
        let water = ShapingPolynomial.coefficients(
            harmonics: soundscape.tone.waterHarmonics, degree: 4, highestFundamentalHz: highestTone, nyquistLimitHz: nyquistLimit)
        let sky = ShapingPolynomial.coefficients(
            harmonics: soundscape.tone.skyHarmonics, degree: 4, highestFundamentalHz: highestTone, nyquistLimitHz: nyquistLimit)
        let trail = ShapingPolynomial.coefficients(
            harmonics: soundscape.trail.harmonics, degree: 3,
            highestFundamentalHz: soundscape.tone.highFrequencyHz * soundscape.trail.pitchRatio, nyquistLimitHz: nyquistLimit)
        constants = SynthKernel.Constants(
            water: (Float(water[0]), Float(water[1]), Float(water[2]), Float(water[3]), Float(water[4])),
            skyDifference: (Float(sky[0] - water[0]), Float(sky[1] - water[1]), Float(sky[2] - water[2]), Float(sky[3] - water[3]), Float(sky[4] - water[4])),
            trail: (Float(trail[0]), Float(trail[1]), Float(trail[2]), Float(trail[3])),
            waterWidth: Float(soundscape.water.width),
            rainWidth: Float(soundscape.rain?.width ?? 0)
        )
        (limiter, outputGain) = Self.outputStage(settings: settings, sampleRate: schedule.sampleRate)
        beatMode = switch settings.beat?.style {
        case nil: .none
        case .binaural: .binaural
        case .isochronic: .isochronic
        }
        gains = ControlSequencer.VoiceGains(
            tone: voices.contains(.tone) ? 1 : 0,
            trail: voices.contains(.trail) ? 1 : 0,
            water: voices.contains(.water) ? Decibels.gain(soundscape.water.gainDecibels) : 0,
            rain: voices.contains(.rain) ? soundscape.rain.map { Decibels.gain($0.gainDecibels) } ?? 0 : 0,
            guide: voices.contains(.cues) ? Decibels.gain(soundscape.cues.gainDecibels + settings.cueVolumeDecibels) : 0,
            bed: settings.bed.map { Decibels.gain($0.gainDecibels - soundscape.masterGainDecibels) } ?? 0)
        // The cosine is within 7·10⁻⁵ of exact, so Σ hₖ cos kθ stays within 1.001·Σ|hₖ|.
        let stereoSpread = settings.channelCount == 2 ? 1.0 : 0.0
        budget = PeakBudget(
            tone: 1.001 * max(ShapingPolynomial.bound(harmonics: soundscape.tone.waterHarmonics),
                              ShapingPolynomial.bound(harmonics: soundscape.tone.skyHarmonics)),
            trail: 1.001 * ShapingPolynomial.bound(harmonics: soundscape.trail.harmonics),
            water: Double(max(waterLoop.primary.peak, waterLoop.secondary?.peak ?? 0)) * (1 + stereoSpread * soundscape.water.width),
            rain: Double(rainLoop?.primary.peak ?? 0) * (1 + stereoSpread * (soundscape.rain?.width ?? 0)))

        // Placed even when `.cues` is left out (its gain is then 0), so the beds duck exactly as in the full mix.
        let events = guide.events
        chimes = Self.marks(events.filter { if case .chime = $0.sound { true } else { false } }, cues: soundscape.cues, sampleRate: rate)
        ticks = Self.marks(events.filter { if case .tick = $0.sound { true } else { false } }, cues: soundscape.cues, sampleRate: rate)
        clips = Self.clips(events, settings: settings, sampleRate: rate)
        let cues = soundscape.cues
        duckShape = BedDucking.Shape(
            depth: Decibels.gain(cues.duckDecibels), delayFrames: Int64(blockFrames),
            attackFrames: Int64(0.02 * Double(rate)), releaseFrames: Int64(0.25 * Double(rate)))
        framingSource = Self.framingTrack(guide.framing, settings: settings, curves: curves, guideGain: gains.guide)
        framing = framingSource.bound(outputGain: outputGain, ceiling: limiter.ceiling)
    }

    /// This plan with the output stage bound to a loudness gain of `decibels` (replacing its own): the curves,
    /// noise loops, guide tables and voice gains are shared, not rebuilt, so a loudness target's second pass
    /// costs no second compile. Renders equal a plan compiled with that gain, sample for sample.
    public func withLoudnessGain(decibels: Double) -> RenderPlan {
        var settings = self.settings
        settings.loudnessGainDecibels = decibels
        return RenderPlan(rebinding: self, settings: settings)
    }

    /// This plan with the limiter's ceiling `decibels` lower for an encoder that adds peaks of its own (Vorbis,
    /// Opus and MP3 overshoot a limited signal by up to about 1.2 dB), sharing every table as
    /// `withLoudnessGain` does.
    public func withEncodingHeadroom(decibels: Double) -> RenderPlan {
        var settings = self.settings
        settings.encodingHeadroomDecibels = decibels
        return RenderPlan(rebinding: self, settings: settings)
    }

    /// Whether `other` shares this plan's compiled tables (the noise loops and the guide's tables, the same
    /// storage, not equal copies), so a rebinding is seen to have compiled nothing.
    public func sharesTables(with other: RenderPlan) -> Bool {
        waterLoop.primary === other.waterLoop.primary && rainLoop?.primary === other.rainLoop?.primary
            && zip(chimes.tables + clips.tables, other.chimes.tables + other.clips.tables).allSatisfy { $0 === $1 }
    }

    /// A copy of `plan` whose output stage follows `settings` (which differ from the plan's in the output stage's
    /// fields alone).
    private init(rebinding plan: RenderPlan, settings: RenderSettings) {
        self.settings = settings
        // The heavy part, shared: the same curves, loops and tables.
        (schedule, curves, guide, totalFrameCount) = (plan.schedule, plan.curves, plan.guide, plan.totalFrameCount)
        (waterLoop, rainLoop, constants, beatMode) = (plan.waterLoop, plan.rainLoop, plan.constants, plan.beatMode)
        (gains, budget, chimes, ticks, clips, duckShape) = (plan.gains, plan.budget, plan.chimes, plan.ticks, plan.clips, plan.duckShape)
        framingSource = plan.framingSource
        // The light part, bound anew.
        (limiter, outputGain) = Self.outputStage(settings: settings, sampleRate: schedule.sampleRate)
        framing = framingSource.bound(outputGain: outputGain, ceiling: limiter.ceiling)
    }

    /// The limiter and the output gain for a loudness gain: a loudness gain moves the limiter with it, so a
    /// quieter or louder render is the calibrated one scaled; the ceiling rises no higher than
    /// `highestLoudnessCeilingDecibels`, and never above `truePeakCeilingDecibels(sampleRate:)` less the
    /// encoding headroom.
    private static func outputStage(settings: RenderSettings, sampleRate: Int) -> (LimiterLevels, Float) {
        let soundscape = settings.soundscape
        let loudnessGain = settings.loudnessGainDecibels
        let ceilingDecibels = min(
            soundscape.limiter.ceilingDecibels + loudnessGain,
            max(soundscape.limiter.ceilingDecibels, Self.highestLoudnessCeilingDecibels),
            Self.truePeakCeilingDecibels(sampleRate: sampleRate)) - max(0, settings.encodingHeadroomDecibels)
        // A look-ahead limiter's gain is smooth, so it needs no wide soft knee: it begins no lower than
        // `widestKneeDecibels` under its ceiling, and leaves a loud voice under that alone.
        let kneeDecibels = max(min(soundscape.limiter.kneeDecibels + loudnessGain, ceilingDecibels - 0.5), ceilingDecibels - Self.widestKneeDecibels)
        let limiter = LimiterLevels(knee: Float(Decibels.gain(kneeDecibels)), ceiling: Float(Decibels.gain(ceilingDecibels)))
        return (limiter, Float(Decibels.gain(loudnessGain)))
    }

    /// Frames per second.
    public var sampleRate: Int { schedule.sampleRate }

    /// The most the limiter may have to take off the soundscape's own voices, dB: a soundscape that needs more
    /// is refused, as no limiter renders it cleanly (NagiKit's `Soundtrack.prepare` checks it).
    public static let largestLimitingDecibels = 6.0

    /// How loud the soundscape's own voices (tone, pad, water, rain; at their loudest gain, tremolo, swell and
    /// ripple, all at once, before any loudness gain) can sum to, dBFS, and the soundscape field that adds the most
    /// (`masterGainDecibels` when that is above 0): an upper bound, computed without rendering, and a loose one
    /// (the noise beds' rare peaks and the tone's crests taken as if they met), so it only says when a render must
    /// measure how far the limiter has to go.
    public var voicePeakBound: (decibels: Double, field: String) {
        let soundscape = settings.soundscape
        let master = Decibels.gain(soundscape.masterGainDecibels)
        let tone = soundscape.tone
        let tremolo = soundscape.shimmer.amplitudePoints * soundscape.shimmer.tremoloDecibelsPerPoint
        let toneTerm = budget.tone * Decibels.gain(max(tone.gainDecibelsInhaled, tone.gainDecibelsExhaled) + tremolo)
        let trail = soundscape.trail
        let trailTerm = budget.trail * Decibels.gain(max(trail.gainDecibelsInhaled, trail.gainDecibelsExhaled))
        let swell = max(1, soundscape.holdSwell.peak)
        let water = soundscape.water
        let rise = water.layers.reduce(0) { $0 + abs($1.weight * $1.depthPoints) }
        let waterTerm = budget.water * Decibels.gain(water.gainDecibels) * swell * max(1, 1 + water.levelPerPoint * rise)
        let rainTerm = budget.rain * (soundscape.rain.map { Decibels.gain($0.gainDecibels) * swell } ?? 0)
        let terms = [
            (toneTerm, tone.gainDecibelsInhaled >= tone.gainDecibelsExhaled ? "tone.gainDecibelsInhaled" : "tone.gainDecibelsExhaled"),
            (trailTerm, trail.gainDecibelsInhaled >= trail.gainDecibelsExhaled ? "trail.gainDecibelsInhaled" : "trail.gainDecibelsExhaled"),
            (waterTerm, swell > 2 ? "holdSwell.peak" : "water.gainDecibels"),
            (rainTerm, swell > 2 ? "holdSwell.peak" : "rain.gainDecibels"),
        ]
        let sum = master * terms.reduce(0) { $0 + $1.0 }
        let loudest = terms.max { $0.0 < $1.0 }?.1 ?? "masterGainDecibels"
        return (20 * log10(max(sum, 1e-12)), soundscape.masterGainDecibels > 0 ? "masterGainDecibels" : loudest)
    }

    /// Where the limiter's soft knee begins, dBTP.
    public var limiterKneeDecibels: Double { 20 * log10(Double(limiter.knee)) }

    /// The limiter's true-peak ceiling, dBTP (the soundscape's, or lower: see `truePeakCeilingDecibels`).
    public var limiterCeilingDecibels: Double { 20 * log10(Double(limiter.ceiling)) }

    /// The highest limiter ceiling a loudness gain may raise it to, dBFS: −1 dBTP less half a decibel for the
    /// peaks between samples (libebur128 reads full-band noise's true peak about 0.5 dB under ffmpeg's).
    public static let highestLoudnessCeilingDecibels = -1.5

    /// The highest true-peak ceiling the limiter has at `sampleRate`, dBTP: −1 less a margin for the difference
    /// between its own estimate of the peaks between samples and another meter's (ffmpeg's `ebur128=peak=true`
    /// resamples to 192 kHz with its own filter, whose ripple reads a limited full-band signal up to 0.4 dB higher
    /// than band-limited interpolation at 8–22 kHz, under 0.05 dB from 32 kHz on) and for 16-bit quantisation.
    public static func truePeakCeilingDecibels(sampleRate: Int) -> Double {
        sampleRate < 32000 ? -1.6 : -1.2
    }

    /// How far under its ceiling the limiter's soft knee may begin at most, dB.
    public static let widestKneeDecibels = 1.0

    /// The encoding headroom for lossy output (Vorbis, Opus, MP3), dB: their encoders add up to about 1.2 dB of
    /// peaks to a heavily limited signal (measured with ffmpeg on a soundscape at every gain's maximum).
    public static let lossyEncodingHeadroomDecibels = 1.5

    /// The voices added to the fused kernel's centre, fresh for one renderer.
    func makeVoices() -> [MixVoice] {
        var voices: [MixVoice] = []
        let ducks = settings.soundscape.cues.duckDecibels < 0
        let rate = schedule.sampleRate
        if !chimes.entries.isEmpty { voices.append(ClipTrack(tables: chimes.tables, entries: chimes.entries, duck: nil, sampleRate: rate)) }
        if !ticks.entries.isEmpty { voices.append(ClipTrack(tables: ticks.tables, entries: ticks.entries, duck: nil, sampleRate: rate)) }
        if !clips.entries.isEmpty { voices.append(ClipTrack(tables: clips.tables, entries: clips.entries, duck: ducks ? duckShape : nil, sampleRate: rate)) }
        return voices
    }

    /// The lead-in's and the ending's sounds: each at the guide's gain where the breathing begins (the lead-in) or
    /// where it ends (the ending: the session decay reached); a phrase that would not be over by its event's end
    /// frame is left out.
    private static func framingTrack(_ framing: SessionFraming, settings: RenderSettings, curves: ControlCurves, guideGain: Double) -> FramingTrack {
        guard !framing.events.isEmpty else { return .empty }
        let cues = settings.soundscape.cues
        let rate = curves.sampleRate
        let master = settings.soundscape.masterGainDecibels
        let leadInGain = Float(guideGain * Decibels.gain(master))
        let endingGain = Float(guideGain * Decibels.gain(master + curves.sessionGainDecibels(at: curves.schedule.totalFrames)))
        var tables: [FloatBuffer] = []
        var entries: [FramingTrack.Entry] = []
        for event in framing.events {
            let table: FloatBuffer
            switch event.sound {
            case let .chime(kind): table = GuideTables.chime(cues.chime(kind), cues: cues, sampleRate: rate)
            case let .tick(pitchHz): table = GuideTables.tick(pitchHz: pitchHz, cues: cues, sampleRate: rate)
            case let .phrase(words):
                guard let clip = settings.clips.phrases[words], !clip.isEmpty, event.frame + Int64(clip.count) <= event.phaseEndFrame else { continue }
                table = GuideTables.clip(clip, cues: cues)
            case .pack:
                continue
            }
            tables.append(table)
            entries.append(FramingTrack.Entry(
                startFrame: event.frame, endFrame: min(event.frame + Int64(table.count), framing.totalFrameCount),
                tableIndex: tables.count - 1, baseGain: event.phaseIndex < 0 ? leadInGain : endingGain))
        }
        return FramingTrack(tables: tables, entries: entries, sampleRate: rate)
    }

    /// Chimes and ticks: one table per chime kind used, one per tick pitch (on a 25-cent grid, so a long
    /// session shares a few dozen tables).
    private static func marks(_ events: [GuideEvent], cues: Soundscape.Cues, sampleRate: Int) -> (tables: [FloatBuffer], entries: [ClipTrack.Entry]) {
        var tables: [FloatBuffer] = []
        var chimeTables: [GuideEvent.ChimeKind: Int] = [:]
        var tickTables: [Int: Int] = [:]
        var entries: [ClipTrack.Entry] = []
        for event in events {
            switch event.sound {
            case let .chime(kind):
                let index = chimeTables[kind] ?? {
                    tables.append(GuideTables.chime(cues.chime(kind), cues: cues, sampleRate: sampleRate))
                    chimeTables[kind] = tables.count - 1
                    return tables.count - 1
                }()
                entries.append(ClipTrack.Entry(startFrame: event.frame, tableIndex: index))
            case let .tick(pitchHz):
                let step = Int((1200 / 25 * log2(pitchHz / 100)).rounded())
                let index = tickTables[step] ?? {
                    tables.append(GuideTables.tick(pitchHz: 100 * exp2(Double(step) * 25 / 1200), cues: cues, sampleRate: sampleRate))
                    tickTables[step] = tables.count - 1
                    return tables.count - 1
                }()
                entries.append(ClipTrack.Entry(startFrame: event.frame, tableIndex: index))
            case .phrase, .pack:
                continue
            }
        }
        return (tables, entries)
    }

    /// Spoken and cue-pack clips: a phrase whose clip would run past its phase's end is left out (a phase too
    /// short for its words gets none); a pack clip is cut on the next boundary behind a 10 ms fade.
    private static func clips(_ events: [GuideEvent], settings: RenderSettings, sampleRate: Int) -> (tables: [FloatBuffer], entries: [ClipTrack.Entry]) {
        let cues = settings.soundscape.cues
        var tables: [FloatBuffer] = []
        var phraseTables: [String: Int] = [:]
        var packTables: [CuePackSlot: Int] = [:]
        var entries: [ClipTrack.Entry] = []
        let fadeFrames = max(1, Int64(0.01 * Double(sampleRate)))
        for event in events {
            switch event.sound {
            case let .phrase(words):
                guard let clip = settings.clips.phrases[words], !clip.isEmpty,
                      event.frame + Int64(clip.count) <= event.phaseEndFrame else { continue }
                let index = phraseTables[words] ?? {
                    tables.append(GuideTables.clip(clip, cues: cues))
                    phraseTables[words] = tables.count - 1
                    return tables.count - 1
                }()
                entries.append(ClipTrack.Entry(startFrame: event.frame, tableIndex: index))
            case let .pack(slot):
                guard let clip = settings.clips.packClip(slot), !clip.isEmpty else { continue }
                let index = packTables[slot] ?? {
                    tables.append(GuideTables.clip(clip, cues: cues))
                    packTables[slot] = tables.count - 1
                    return tables.count - 1
                }()
                let phaseFrames = event.phaseEndFrame - event.frame
                entries.append(ClipTrack.Entry(
                    startFrame: event.frame, tableIndex: index, stopFrame: event.phaseEndFrame, fadeFrames: max(1, min(fadeFrames, phaseFrames))))
            case .chime, .tick:
                continue
            }
        }
        return (tables, entries)
    }
}
