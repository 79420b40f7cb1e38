import NagiKit
import FoundationEssentials

/// Everything `render`, `play` and the course commands read to shape the sound besides the guidance: the
/// synthesis options, the beat, the loudness target and the bed, read once, turned into the engine's request
/// in one place so that each command hears the same thing for the same options.
struct SoundOptions {
    var synthesis: SynthesisOptions
    var beat: BeatOptions
    var loudness: LoudnessOptions
    var bed: BedOptions

    init(_ arguments: ParsedArguments) throws(CLIError) {
        synthesis = try SynthesisOptions(arguments)
        beat = try BeatOptions(arguments)
        loudness = try LoudnessOptions(arguments)
        bed = try BedOptions(arguments)
    }

    /// The engine's request for `schedule` in `soundscape` under `guidance`: the beat (refused in mono when
    /// binaural), the bed and the loudness target, `lesson` supplying what the command line leaves unset.
    func request(guidance: GuidanceOptions, schedule: Schedule, soundscape: Soundscape, lesson: Course.Lesson? = nil) throws(CLIError) -> SoundtrackRequest {
        let chosenBeat = beat.beatFor(lesson: lesson?.beat)
        try BeatOptions.check(chosenBeat, channelCount: synthesis.channelCount)
        let guide = SoundtrackRequest.Guide(
            cues: guidance.cueMode, count: guidance.countMode, voice: guidance.speechVoice,
            cuePackFolder: guidance.cuePackPath, cueVolumeDecibels: guidance.cueVolumeDecibels,
            countdownSeconds: guidance.countdownSeconds, endBell: guidance.endBell)
        return SoundtrackRequest(
            schedule: schedule, soundscape: soundscape, channelCount: synthesis.channelCount, seed: synthesis.seed, guide: guide,
            bed: try bed.bed(soundscape: soundscape, lesson: lesson), beat: chosenBeat,
            loudnessTargetLUFS: loudness.target(lesson: lesson?.loudnessLUFS))
    }

    /// The soundtrack these options make of `schedule`: the request prepared (the bed opened and measured,
    /// the guide's clips made, the loudness pass run) before any output exists, so a bad one leaves nothing.
    /// With `calibrated`, the loudness target is left for the caller (`Soundtrack.reachingLoudness`).
    /// `showsLoudnessPass` draws the loudness pass as a progress bar on standard error ("measuring loudness…")
    /// when that is a terminal: on a long session the pass takes seconds before anything else shows. `holdsBed`:
    /// as `Soundtrack.prepare`'s (false for a caller that keeps many soundtracks before writing them).
    func prepare(
        guidance: GuidanceOptions, schedule: Schedule, soundscape: Soundscape, lesson: Course.Lesson? = nil,
        guideClips: GuideClipCache = GuideClipCache(speaker: FliteSpeaker(processCount: Self.speechProcessCount)), calibrated: Bool = false,
        holdsBed: Bool = true, showsLoudnessPass: Bool = false
    ) throws(CLIError) -> Soundtrack {
        var request = try request(guidance: guidance, schedule: schedule, soundscape: soundscape, lesson: lesson)
        if calibrated { request.loudnessTargetLUFS = nil }
        let bar = ProgressBar(enabled: showsLoudnessPass && request.loudnessTargetLUFS != nil && Console.standardErrorIsTerminal, label: Self.loudnessPassLabel)
        defer { bar.finish() }
        do {
            return try Soundtrack.prepare(request, guide: guideClips, cancel: CLIError.stopSignalReceived, holdsBed: holdsBed, loudnessProgress: { bar.update($0) })
        } catch {
            throw CLIError(error)
        }
    }

    /// How many processes speak the guide's phrases when the caller does not say: one a core (`FliteSpeaker`).
    static var speechProcessCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// What the progress bar of the loudness pass says.
    static let loudnessPassLabel = "measuring loudness…"
}
