import Breath
import GuideSources
import Locking
import Speech
import Synth

/// The guide's clips for a render: each distinct phrase spoken once (by a `PhraseSpeaker`, flite by default)
/// and each cue pack read once, per sample rate, however many soundtracks share them (a course's lessons).
/// Safe to share between threads: each cache sits behind its lock, and flite keeps its own.
public final class GuideClipCache: Sendable {
    private struct PhraseKey: Hashable, Sendable {
        var text: String
        var voice: SpeechVoice
        var sampleRate: Int
    }

    private struct PackKey: Hashable, Sendable {
        var folder: String
        var sampleRate: Int
    }

    private let speaker: any PhraseSpeaker
    private let phrases = Locked<[PhraseKey: [Float]]>([:])
    private let packs = Locked<[PackKey: [CuePackSlot: [Float]]]>([:])

    /// A cache whose words `speaker` speaks.
    public init(speaker: any PhraseSpeaker = FliteSpeaker()) {
        self.speaker = speaker
    }

    /// Every clip the guide of `settings` plays over `schedule` under `guide` (phrases by their words, the
    /// pack's clips by slot), at the schedule's rate. `beforeSpeaking` runs just before the speaker is asked for
    /// phrases this cache does not hold yet (not at all when it holds them all): flite's speaking processes are
    /// forked, and a caller with a thread of its own running ends it there.
    /// - Throws: `.cuePack` for a pack that cannot be used, `.unspeakable` or `.spokenCue` for words.
    func clips(
        for guide: SoundtrackRequest.Guide, schedule: Schedule, settings: RenderSettings, beforeSpeaking: () -> Void = {}
    ) throws(SoundtrackError) -> GuideClips {
        var clips = GuideClips.none
        var settings = settings
        // The pack replaces the chimes, so the plan must know of it before it chooses what each boundary plays.
        if let folder = guide.cuePackFolder, settings.cues.chimes {
            clips.pack = try pack(folder: folder, sampleRate: schedule.sampleRate)
            settings.clips = clips
        }
        let texts = GuidePlan(schedule: schedule, settings: settings).requiredPhrases
        let key = { (text: String) in PhraseKey(text: text, voice: guide.voice, sampleRate: schedule.sampleRate) }
        let missing = phrases.withLock { phrases in texts.filter { phrases[key($0)] == nil } }
        if !missing.isEmpty { beforeSpeaking() }
        // All at once, so a speaker that can (flite in several processes) speaks them side by side.
        let spoken = try speaker.speakAll(missing, voice: guide.voice, sampleRate: schedule.sampleRate)
        for (index, text) in missing.enumerated() {
            // A speaker of an app's that answered fewer clips than asked is asked again for the rest, one by one.
            let samples = index < spoken.count ? spoken[index] : try speaker.speak(text, voice: guide.voice, sampleRate: schedule.sampleRate)
            // High-passed and levelled so the words carry in the speech band (the renderer then scales by the peak).
            let prepared = SpeechPresence.prepared(samples, sampleRate: schedule.sampleRate)
            phrases.withLock { $0[key(text)] = prepared }
        }
        for text in texts {
            clips.phrases[text] = phrases.withLock { $0[key(text)] }
        }
        return clips
    }

    /// The pack in `folder` at `sampleRate`, each clip mono (a stereo clip as the mean of its channels).
    private func pack(folder: String, sampleRate: Int) throws(SoundtrackError) -> [CuePackSlot: [Float]] {
        let key = PackKey(folder: folder, sampleRate: sampleRate)
        if let clips = packs.withLock({ $0[key] }) { return clips }
        let pack: CuePack
        do { pack = try CuePack.load(folder: folder, sampleRate: sampleRate) } catch { throw .cuePack(error) }
        var clips: [CuePackSlot: [Float]] = [
            .inhale: Self.mono(pack.inhale), .hold: Self.mono(pack.hold), .exhale: Self.mono(pack.exhale),
        ]
        // Without its own clip a hold after an exhale falls back to `hold` in the renderer.
        if let holdOut = pack.holdOut { clips[.holdOut] = Self.mono(holdOut) }
        packs.withLock { $0[key] = clips }
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
