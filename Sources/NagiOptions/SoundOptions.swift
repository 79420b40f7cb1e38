import NagiKit
import FoundationEssentials

/// Everything `render`, `play` and the course commands read to shape the sound besides the guidance: the
/// synthesis options, the beat, the loudness target and the bed, read once, turned into the engine's request
/// in one place so that each command hears the same thing for the same options.
package struct SoundOptions {
    package var synthesis: SynthesisOptions
    package var beat: BeatOptions
    package var loudness: LoudnessOptions
    package var bed: BedOptions

    package init(_ arguments: ParsedArguments) throws(NagiError) {
        synthesis = try SynthesisOptions(arguments)
        beat = try BeatOptions(arguments)
        loudness = try LoudnessOptions(arguments)
        bed = try BedOptions(arguments)
    }

    /// NagiKit's options for these and `guidance`: what the command line gives, nil where it leaves a setting to a
    /// course lesson or the soundscape.
    package func soundtrackOptions(guidance: GuidanceOptions) -> SoundtrackOptions {
        var options = SoundtrackOptions()
        options.channelCount = synthesis.channelCount
        options.seed = synthesis.seed
        options.soundscape = synthesis.soundscape.reference
        (options.cues, options.count, options.voice) = (guidance.cues, guidance.count, guidance.voice)
        options.cuePackFolder = guidance.cuePackPath
        options.cueVolumeDecibels = guidance.cueVolumeDecibels
        (options.countdownSeconds, options.endBell) = (guidance.countdownSeconds, guidance.endBell)
        (options.bedPath, options.bedLevelDecibels) = (bed.path, bed.levelDecibels)
        options.beat = beat.beat
        options.beatStyle = beat.styleGiven ? beat.style : nil
        options.loudnessTargetLUFS = loudness.targetLUFS
        return options
    }

    /// The engine's request for `schedule` in `soundscape` under `guidance`, `lesson` supplying what the command
    /// line leaves unset (`SoundtrackOptions.request`): a binaural beat in mono, or a bed level with no bed, is 64.
    package func request(guidance: GuidanceOptions, schedule: Schedule, soundscape: Soundscape, lesson: Course.Lesson? = nil) throws(NagiError) -> SoundtrackRequest {
        do {
            return try soundtrackOptions(guidance: guidance).request(schedule: schedule, soundscape: soundscape, lesson: lesson)
        } catch {
            throw NagiError(error)
        }
    }
}
