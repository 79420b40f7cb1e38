import Breath
import NagiDocuments
import Speech
import Synth

/// What a caller chooses for a soundtrack besides the session, each setting optional where a course lesson or
/// the soundscape may supply it: the rule (`SoundtrackRequest.chosen`) is the caller's choice, then the
/// lesson's, then the soundscape's or the default. `nagi render`, `play`, `course export`, `course next` and
/// `nagi serve` all make their requests through it, so the same options sound the same everywhere.
///
/// Its messages name the settings as the command line and the server do (`--bed-level`, `bed-level`).
public struct SoundtrackOptions: Sendable, Equatable {
    /// Interleaved channels, 1 or 2.
    public var channelCount = 2
    /// Fixes the noise beds.
    public var seed: UInt64 = 1
    /// A soundscape preset name, `auto`, or a JSON path; nil: the lesson's, else `SoundscapeResolver.defaultName`.
    public var soundscape: String?
    /// What marks each phase change; nil: the lesson's, else the chimes.
    public var cues: CueMode?
    /// What counts the seconds; nil: the lesson's, else none.
    public var count: CountMode?
    /// The voice that speaks; nil: the lesson's, else `slt`.
    public var voice: SpeechVoice?
    /// A folder of clips played in place of the chimes.
    public var cuePackFolder: String?
    /// Moves every guide sound by this many dB.
    public var cueVolumeDecibels = 0.0
    /// Seconds of get-ready countdown before the first inhale (0: none).
    public var countdownSeconds = 0
    /// Whether an end bell follows the release.
    public var endBell = false
    /// A recording under the session; nil: the lesson's, else the soundscape's.
    public var bedPath: String?
    /// The bed's level in LU against −20 LUFS; nil: the lesson's, else the soundscape's, else the default.
    public var bedLevelDecibels: Double?
    /// A beat on the tone; nil: the lesson's.
    public var beat: Beat?
    /// How a lesson's own beat sounds when the caller names a style but no beat; nil: the lesson's style.
    public var beatStyle: Beat.Style?
    /// An integrated loudness target, LUFS; nil: the lesson's, else the soundscape's calibrated level.
    public var loudnessTargetLUFS: Double?

    /// The defaults: stereo, seed 1, everything else left to the lesson or the soundscape.
    public init() {}

    /// The soundscape reference that applies to `lesson`: the caller's, else the lesson's (nil: the default).
    public func soundscapeReference(lesson: Course.Lesson? = nil) -> String? {
        SoundtrackRequest.chosen(soundscape, lesson: lesson?.soundscape)
    }

    /// The guide for `lesson` (nil: none): its cues, count and voice where the caller sets none.
    public func guide(lesson: Course.Lesson? = nil) -> SoundtrackRequest.Guide {
        SoundtrackRequest.Guide(
            cues: SoundtrackRequest.chosen(cues, lesson: lesson?.cues.flatMap(CueMode.init(rawValue:))) ?? .chimes,
            count: SoundtrackRequest.chosen(count, lesson: lesson?.count.flatMap(CountMode.init(rawValue:))) ?? .none,
            voice: SoundtrackRequest.chosen(voice, lesson: lesson?.voice.flatMap(SpeechVoice.init(rawValue:))) ?? .slt,
            cuePackFolder: cuePackFolder, cueVolumeDecibels: cueVolumeDecibels,
            countdownSeconds: countdownSeconds, endBell: endBell)
    }

    /// The beat for `lesson`: the caller's, else the lesson's own (its style yielding to `beatStyle`).
    public func beat(lesson: LessonBeat?) -> Beat? {
        if let beat { return beat }
        guard let lesson else { return nil }
        let lessonStyle = lesson.style.flatMap(Beat.Style.init(rawValue:)) ?? .binaural
        return Beat(style: beatStyle ?? lessonStyle, startHz: lesson.startHz, endHz: lesson.endHz)
    }

    /// The bed that applies: the caller's over the lesson's over the soundscape's, and its level likewise.
    /// - Throws: `.invalidOptions` for a level with no bed.
    public func bed(soundscape: Soundscape, lesson: Course.Lesson? = nil) throws(SoundtrackError) -> SoundtrackRequest.Bed? {
        guard let chosenPath = SoundtrackRequest.chosen(bedPath, lesson: lesson?.bed, soundscape: soundscape.bed) else {
            if bedLevelDecibels != nil {
                throw .invalidOptions("--bed-level sets the level of a bed, but there is none; add --bed FILE")
            }
            return nil
        }
        let level = SoundtrackRequest.chosen(bedLevelDecibels, lesson: lesson?.bedLevelDecibels, soundscape: soundscape.bedLevelDecibels)
        return SoundtrackRequest.Bed(path: chosenPath, levelDecibels: level ?? BedMix.defaultLevelDecibels)
    }

    /// The request for `schedule` in `soundscape`, `lesson` supplying what the caller leaves unset.
    /// - Throws: `.invalidOptions` for a binaural beat in mono or a bed level with no bed.
    public func request(schedule: Schedule, soundscape: Soundscape, lesson: Course.Lesson? = nil) throws(SoundtrackError) -> SoundtrackRequest {
        let chosenBeat = beat(lesson: lesson?.beat)
        if let chosenBeat, chosenBeat.style == .binaural, channelCount < 2 {
            throw .invalidOptions("a binaural beat needs two channels (one tone per ear), but --channels is 1; use --beat-style isochronic for mono")
        }
        return SoundtrackRequest(
            schedule: schedule, soundscape: soundscape, channelCount: channelCount, seed: seed, guide: guide(lesson: lesson),
            bed: try bed(soundscape: soundscape, lesson: lesson), beat: chosenBeat,
            loudnessTargetLUFS: SoundtrackRequest.chosen(loudnessTargetLUFS, lesson: lesson?.loudnessLUFS))
    }
}
