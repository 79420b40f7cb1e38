import Breath
import GuideSources
import Speech
import Synth

/// Turns the command line's guidance into the renderer's guide settings: the cue and count modes, the cue
/// volume and the clips the plan needs, each at the session rate.
///
/// Everything that calls a C library happens here, before any render starts (and before `course export`'s
/// worker threads): each distinct phrase is synthesized with flite once and resampled with libsoxr once per
/// sample rate, and the cue pack is read once per sample rate. One assembler serves every lesson of a course.
final class GuideAssembler {
    private struct PhraseKey: Hashable {
        var text: String
        var voice: SpeechVoice
        var sampleRate: Int
    }

    private struct PackKey: Hashable {
        var folder: String
        var sampleRate: Int
    }

    private var phrases: [PhraseKey: [Float]] = [:]
    private var packs: [PackKey: [CuePackSlot: [Float]]] = [:]

    /// The render settings for `schedule` in `soundscape` under `guidance`, with every clip its guide plays.
    /// - Throws: `.cuePack` for a pack that cannot be used, `.data` for words flite cannot be given,
    ///   `.spokenCue` when flite or libsoxr fail on them.
    func settings(
        for guidance: GuidanceOptions, schedule: Schedule, soundscape: Soundscape, channelCount: Int, seed: UInt64
    ) throws(CLIError) -> RenderSettings {
        var settings = RenderSettings(
            soundscape: soundscape, channelCount: channelCount, seed: seed, cues: guidance.cueMode,
            count: guidance.countMode, cueVolumeDecibels: guidance.cueVolumeDecibels)
        // The pack replaces the chimes, so the plan must know of it before it chooses what each boundary plays.
        if let folder = guidance.cuePackPath, settings.cues.chimes {
            settings.clips.pack = try pack(folder: folder, sampleRate: schedule.sampleRate)
        }
        let plan = GuidePlan(schedule: schedule, settings: settings)
        var spoken: [String: [Float]] = [:]
        for text in plan.requiredPhrases {
            spoken[text] = try phrase(text, voice: guidance.speechVoice, sampleRate: schedule.sampleRate)
        }
        settings.clips.phrases = spoken
        return settings
    }

    /// `text` spoken by `voice` at `sampleRate`, mono.
    private func phrase(_ text: String, voice: SpeechVoice, sampleRate: Int) throws(CLIError) -> [Float] {
        let key = PhraseKey(text: text, voice: voice, sampleRate: sampleRate)
        if let samples = phrases[key] { return samples }
        let checked: SpeechPhrase
        do { checked = try SpeechPhrase(text) } catch { throw .data("spoken guide: \"\(text)\": \(error.message)") }
        let clip: CueClip
        do { clip = try SpokenCue.clip(checked, voice: voice, sampleRate: sampleRate) } catch { throw .spokenCue(error) }
        // High-passed and levelled so the words carry in the speech band (the renderer then scales by the peak).
        let samples = SpeechPresence.prepared(clip.samples, sampleRate: sampleRate)
        phrases[key] = samples
        return samples
    }

    /// The pack in `folder` at `sampleRate`, each clip mono (a stereo clip as the mean of its channels).
    private func pack(folder: String, sampleRate: Int) throws(CLIError) -> [CuePackSlot: [Float]] {
        let key = PackKey(folder: folder, sampleRate: sampleRate)
        if let clips = packs[key] { return clips }
        let pack: CuePack
        do { pack = try CuePack.load(folder: folder, sampleRate: sampleRate) } catch { throw .cuePack(error) }
        var clips: [CuePackSlot: [Float]] = [
            .inhale: Self.mono(pack.inhale), .hold: Self.mono(pack.hold), .exhale: Self.mono(pack.exhale),
        ]
        // Without its own clip a hold after an exhale falls back to `hold` in the renderer.
        if let holdOut = pack.holdOut { clips[.holdOut] = Self.mono(holdOut) }
        packs[key] = clips
        return clips
    }

    /// A clip's samples as one channel.
    static func mono(_ clip: CueClip) -> [Float] {
        guard clip.channelCount == 2 else { return clip.samples }
        var samples = [Float](repeating: 0, count: clip.frameCount)
        for frame in 0..<clip.frameCount {
            samples[frame] = (clip.samples[2 * frame] + clip.samples[2 * frame + 1]) * 0.5
        }
        return samples
    }
}
