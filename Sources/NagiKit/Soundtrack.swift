import AudioFile
import BedSource
import Breath
import Synth

/// A session's sound, prepared once: then pulled (`makeRenderer`), sought in, written (`write`) or played.
///
/// `prepare` does all the C-library work before any output exists — the bed opened and measured, the guide's
/// phrases spoken and resampled, the loudness target's first pass — and compiles one `RenderPlan`. The result
/// is immutable and `Sendable`: several renderers (one per thread) can pull from one soundtrack, and every
/// renderer gives the same samples for the same frames.
public final class Soundtrack: Sendable {
    /// What was asked for.
    public let request: SoundtrackRequest
    /// The one compiled plan (with the loudness gain bound, when there is a target).
    public let plan: RenderPlan
    /// What the loudness pass measured and chose (nil without a target).
    public let loudness: LoudnessMeasurement?
    /// The bed's integrated loudness as the session plays it, LUFS (nil without a bed).
    public let bedLoudnessLUFS: Double?
    /// The bed read whole into memory while this was prepared, when it loops and fits the budget (nil: each write
    /// opens the bed itself). Immutable: every renderer of every write reads it through a cursor of its own.
    let heldBed: HeldBed?

    /// The exact schedule.
    public var schedule: Schedule { plan.schedule }
    /// Frames of the whole soundtrack: the schedule's, the release and the closing silence.
    public var totalFrameCount: Int64 { plan.totalFrameCount }
    /// Frames per second.
    public var sampleRate: Int { plan.sampleRate }
    /// Interleaved channels per frame.
    public var channelCount: Int { plan.settings.channelCount }
    /// Everything besides the schedule that decides the samples, as the renderer reads it (the bed's gain and
    /// the loudness gain included).
    public var settings: RenderSettings { plan.settings }

    private init(request: SoundtrackRequest, plan: RenderPlan, loudness: LoudnessMeasurement?, bedLoudnessLUFS: Double?, heldBed: HeldBed?) {
        self.request = request
        self.plan = plan
        self.loudness = loudness
        self.bedLoudnessLUFS = bedLoudnessLUFS
        self.heldBed = heldBed
    }

    /// Prepares `request`: the bed is opened, checked and measured over the part the session plays; the
    /// guide's clips come from `guide` (each phrase spoken once per cache); the plan is compiled once; with a
    /// loudness target the plan is metered on two threads and its output stage bound to the gain (nothing
    /// recompiled). The bed file is opened twice here (the measurement's two decoders then serve the pass's two
    /// halves), and once more by each renderer; a bed that loops and fits the memory budget is opened a third
    /// time and read whole on a thread of its own while it is measured and the plan compiles, and every write
    /// reads it from memory (`HeldBedSlot`), unless `holdsBed` is false: the soundtrack keeps that copy (up to
    /// 32 MiB) as long as it lives, which a caller preparing many soundtracks before writing any (a course
    /// export) does not want; then each write reads the bed itself.
    /// `loudnessProgress` is told the fraction of the loudness pass done (0 to 1, on the calling thread, at most
    /// every 1 %), for a request with a target: on a 3-hour session the pass takes seconds.
    /// - Throws: `SoundtrackError`: `.bed`, `.cuePack`, `.unspeakable`, `.spokenCue`, `.cancelled`.
    public static func prepare(
        _ request: SoundtrackRequest, guide: GuideClipCache = GuideClipCache(), cancel: Cancellation = .never,
        holdsBed: Bool = true, loudnessProgress: (Double) -> Void = { _ in }
    ) throws(SoundtrackError) -> Soundtrack {
        let schedule = request.schedule
        let curves = ControlCurves(schedule: schedule, soundscape: request.soundscape)
        var settings = request.renderSettings

        // The bed first: its faults are the first a user can fix.
        var decoders: [BedDecoder] = []
        let heldBed = HeldBedSlot()
        var holdBed: (@Sendable () -> Void)?
        if let bed = request.bed {
            do throws(BedStreamError) {
                let first = try BedDecoder(path: bed.path, channelCount: request.channelCount)
                // Checks the recording can be resampled to the session's rate before it is measured.
                _ = try BedStream(source: first, path: bed.path, sampleRate: schedule.sampleRate)
                try first.rewind()
                // A second open measures half the excerpts on the other core (and reads the pass's second half).
                decoders = [first, try BedDecoder(path: bed.path, channelCount: request.channelCount)]
                if holdsBed {
                    holdBed = heldBed.reading(path: bed.path, decoder: first, sampleRate: schedule.sampleRate, heardFrameCount: curves.silenceStartFrame)
                }
            } catch {
                throw .bed(error)
            }
        }
        // A bed that will be held in memory is read whole on a thread of its own while it is measured and the plan
        // compiles: a short bed is measured from one decoder, so the other core was idle, and the read (decode,
        // resample, high-pass) came after the plan, serially, before the first slice. Joined before the guide
        // speaks (its speaking processes are forked, and no other thread of ours runs then), else once the plan
        // is compiled; on every way out.
        let reading = holdBed.map(SideThread.init)
        defer { reading?.join() }
        var bedLoudness: Double?
        var measuredDecoders: [BedDecoder] = []
        if let bed = request.bed {
            let (loudness, infrasound, measured) = try Self.loudness(
                ofBed: bed.path, reading: decoders, heardFrameCount: curves.totalFrameCount, sampleRate: schedule.sampleRate)
            measuredDecoders = measured
            settings.bed = BedMix(path: bed.path, gainDecibels: BedMix.gainDecibels(loudness: loudness, levelDecibels: bed.levelDecibels, infrasoundDecibels: infrasound))
            bedLoudness = loudness
        }
        settings.clips = try guide.clips(for: request.guide, schedule: schedule, settings: settings, beforeSpeaking: { reading?.join() })
        let plan = RenderPlan(schedule: schedule, settings: settings, curves: curves)
        try Self.checkLimiting(plan)
        reading?.join()

        let calibrated = Soundtrack(request: request, plan: plan, loudness: nil, bedLoudnessLUFS: bedLoudness, heldBed: heldBed.held)
        guard let target = request.loudnessTargetLUFS else { return calibrated }
        return try calibrated.reachingLoudness(targetLUFS: target, measuredDecoders: measuredDecoders, cancel: cancel, progress: loudnessProgress)
    }

    /// The integrated loudness of the bed at `path` over the `heardFrameCount` frames (at `sampleRate`) a session
    /// plays, read through `decoders` (handed over, and handed back), LUFS, and its RMS under 15 Hz once filtered, dBFS.
    /// - Throws: `.bed`: a failed read, or a bed silent once filtered (under the −70 LUFS absolute gate: nothing
    ///   to lay under the session).
    private static func loudness(
        ofBed path: String, reading decoders: sending [BedDecoder], heardFrameCount: Int64, sampleRate: Int
    ) throws(SoundtrackError) -> (loudness: Double, infrasoundDecibels: Double, decoders: [BedDecoder]) {
        do throws(BedStreamError) {
            let measured = try BedMeasurement.measure(reading: decoders, heardSeconds: Double(heardFrameCount) / Double(sampleRate))
            guard measured.loudness.isFinite && measured.loudness >= -70 else { throw BedStreamError.silent(path: path) }
            return measured
        } catch {
            throw .bed(error)
        }
    }

    /// How long the soundscape's voices are heard, from the start, to find how much limiting they need, s: the
    /// session's loudest stretch (calming and the session decay only lower it later), a full cycle of most.
    static let limitingProbeSeconds = 30.0

    /// Refuses a soundscape whose own voices (tone, pad, water, rain; no guide, bed or loudness gain, which are
    /// the caller's choices and the limiter's to handle) need more than `RenderPlan.largestLimitingDecibels` of
    /// limiting. When the plan's bound says they cannot come near, nothing is rendered; else they are rendered
    /// over the session's start and the limiter says how far it had to go.
    private static func checkLimiting(_ plan: RenderPlan) throws(SoundtrackError) {
        // Judged at the PCM ceiling: a lossy output's encoding headroom is the encoder's need, not the soundscape's
        // fault, and the same soundscape renders to every format.
        let plan = plan.settings.encodingHeadroomDecibels == 0 ? plan : plan.withEncodingHeadroom(decibels: 0)
        let bound = plan.voicePeakBound
        guard bound.decibels > plan.limiterCeilingDecibels + RenderPlan.largestLimitingDecibels else { return }
        var settings = plan.settings
        settings.voices = [.tone, .trail, .water, .rain]
        settings.cues = .none
        settings.count = .none
        settings.clips = .none
        settings.bed = nil
        settings.loudnessGainDecibels = 0
        (settings.countdownSeconds, settings.endBell) = (0, false)
        let renderer = Renderer(plan: RenderPlan(schedule: plan.schedule, settings: settings, curves: plan.curves))
        let frames = min(renderer.totalFrameCount, Int64(limitingProbeSeconds * Double(plan.sampleRate)))
        let blockFrames = 8192
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockFrames * renderer.channelCount)
        defer { buffer.deallocate() }
        while renderer.nextFrame < frames {
            renderer.render(into: buffer, frameCount: Int(min(Int64(blockFrames), frames - renderer.nextFrame)))
        }
        let limiting = renderer.largestLimitingDecibels
        if limiting > RenderPlan.largestLimitingDecibels {
            throw .soundscapeTooLoud(title: settings.soundscape.title, limitingDecibels: limiting, field: bound.field)
        }
    }

    /// This soundtrack at the integrated loudness `targetLUFS`: metered on two threads (the session synthesized
    /// once) and its output stage bound to the one gain that reaches the target under the true-peak limit;
    /// nothing is recompiled. `prepare` does this itself for a request with a target; this is for a caller
    /// that prepared the calibrated sound first (a course export only meters the tracks it will write).
    /// `progress` is told the fraction of the pass done, as `prepare`'s `loudnessProgress`.
    /// - Throws: `.bed`, `.cancelled`.
    public func reachingLoudness(targetLUFS: Double, cancel: Cancellation = .never, progress: (Double) -> Void = { _ in }) throws(SoundtrackError) -> Soundtrack {
        try reachingLoudness(targetLUFS: targetLUFS, measuredDecoders: [], cancel: cancel, progress: progress)
    }

    /// `reachingLoudness`, the pass reading the bed from memory when it is held, else each half through the
    /// measurement's decoder of the same place (handed over: the pass reads them on its threads), else through a
    /// reader opened here: a render opens its bed at most 3 times (`BedOpenTally`).
    private func reachingLoudness(
        targetLUFS: Double, measuredDecoders: sending [BedDecoder], cancel: Cancellation, progress: (Double) -> Void
    ) throws(SoundtrackError) -> Soundtrack {
        let calibratedPlan = plan.settings.loudnessGainDecibels == 0 ? plan : plan.withLoudnessGain(decibels: 0)
        let bed: LoudnessPass.Bed
        if let heldBed, plan.settings.bed != nil {
            bed = .held(heldBed)
        } else if let path = plan.settings.bed?.path {
            let halves = LoudnessPass.spans(totalFrames: calibratedPlan.totalFrameCount).count
            do throws(BedStreamError) {
                var readers: [BedReader] = []
                for half in 0..<halves {
                    readers.append(half < measuredDecoders.count
                        ? try BedReader(decoder: measuredDecoders[half], sampleRate: sampleRate, channelCount: channelCount, readAhead: .none)
                        : try BedReader(path: path, sampleRate: sampleRate, channelCount: channelCount))
                }
                bed = .readers(readers)
            } catch {
                throw .bed(error)
            }
        } else {
            bed = .none
        }
        let outcome = try LoudnessPass.measure(plan: calibratedPlan, targetLUFS: targetLUFS, cancel: cancel, progress: progress, bed: bed)
        var request = self.request
        request.loudnessTargetLUFS = targetLUFS
        return Soundtrack(
            request: request, plan: calibratedPlan.withLoudnessGain(decibels: outcome.gainDecibels), loudness: outcome,
            bedLoudnessLUFS: bedLoudnessLUFS, heldBed: heldBed)
    }

    /// A renderer from frame 0, reading the bed (opened here) `readAhead` on threads of its own.
    /// - Throws: `.bed` when the recording cannot be opened again.
    public func makeRenderer(bedReadAhead readAhead: BedReader.ReadAhead = .decodeAndResample) throws(SoundtrackError) -> SoundtrackRenderer {
        try makeRenderer(plan: plan, bedReadAhead: readAhead)
    }

    /// A renderer of `plan` (this soundtrack's, or a rebinding of its output stage) with its own bed reader, or
    /// a cursor of its own into the bed held while preparing (the same frames, without a second copy).
    func makeRenderer(plan: RenderPlan, bedReadAhead readAhead: BedReader.ReadAhead = .decodeAndResample) throws(SoundtrackError) -> SoundtrackRenderer {
        if let heldBed, plan.settings.bed != nil { return SoundtrackRenderer(plan: plan, loopedBed: heldBed.makeCursor()) }
        var bed: BedReader?
        if let mix = plan.settings.bed {
            do { bed = try BedReader(path: mix.path, sampleRate: sampleRate, channelCount: channelCount, readAhead: readAhead) } catch { throw .bed(error) }
        }
        return SoundtrackRenderer(plan: plan, bed: bed)
    }
}
