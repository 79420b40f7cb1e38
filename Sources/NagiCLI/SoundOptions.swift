import Breath
import Synth

/// Everything `render`, `play` and the course commands read to shape the sound besides the guidance: the
/// synthesis options, the beat, the loudness target and the bed, read once, turned into the renderer's
/// settings in one place so that each command hears the same thing for the same options.
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

    /// The renderer's settings for `schedule` in `soundscape`: the beat (refused in mono when binaural), the
    /// bed opened and measured, and the guide's clips from `assembler`; `lesson` supplies the beat and bed the
    /// command line leaves unset. Every C library is called here, before any output exists.
    func renderSettings(
        guidance: GuidanceOptions, schedule: Schedule, soundscape: Soundscape, lesson: Course.Lesson? = nil,
        assembler: GuideAssembler = GuideAssembler()
    ) throws(CLIError) -> RenderSettings {
        let chosenBeat = beat.beatFor(lesson: lesson?.beat)
        try BeatOptions.check(chosenBeat, channelCount: synthesis.channelCount)
        let bedMix = try bed.mix(soundscape: soundscape, lesson: lesson, schedule: schedule, channelCount: synthesis.channelCount)
        var settings = try assembler.settings(for: guidance, schedule: schedule, soundscape: soundscape, channelCount: synthesis.channelCount, seed: synthesis.seed)
        settings.bed = bedMix
        settings.beat = chosenBeat
        return settings
    }
}
