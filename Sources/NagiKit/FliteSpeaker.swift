import GuideSources
import Speech

/// The guide's words spoken by flite (the library, loaded when it first speaks; not the command-line tool) and
/// resampled by libsoxr to the session's rate.
public struct FliteSpeaker: PhraseSpeaker {
    /// How many processes speak a guide's phrases at once (no more than there are cores): above 1, this one and
    /// forked children that run only flite (flite's global state keeps it to one thread a process). The samples
    /// are the same either way.
    public let processCount: Int

    /// flite and its four voices, speaking in up to `processCount` processes at once (1: in this process
    /// only, no child is ever forked: the default, as a library should not fork unasked).
    public init(processCount: Int = 1) {
        self.processCount = max(1, processCount)
    }

    /// `text` checked (`SpeechPhrase`), spoken by flite in `voice` and resampled to `sampleRate`.
    public func speak(_ text: String, voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [Float] {
        try speakAll([text], voice: voice, sampleRate: sampleRate)[0]
    }

    /// `texts` checked and spoken as `speak` speaks each, flite running in up to `processCount` processes at once;
    /// the first failure in the order of `texts` is thrown.
    public func speakAll(_ texts: [String], voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [[Float]] {
        let checked = texts.map { text in Result { () throws(SpeechPhraseError) in try SpeechPhrase(text) } }
        let phrases = checked.compactMap { try? $0.get() }
        let spoken = SpeechSynthesizer(voice: voice).speakAll(phrases, processCount: processCount)
        var clips: [[Float]] = []
        // `spoken` holds a result for each phrase that passed the check, in order.
        var next = spoken.startIndex
        for (text, phrase) in zip(texts, checked) {
            if case .failure(let error) = phrase { throw .unspeakable(text: text, reason: error.message) }
            let speech: SpeechClip
            switch spoken[next] {
            case .success(let clip): speech = clip
            case .failure(let error): throw .spokenCue(.speech(error))
            }
            next += 1
            do { clips.append(try SpokenCue.clip(speech, voice: voice, sampleRate: sampleRate).samples) } catch { throw .spokenCue(error) }
        }
        return clips
    }
}
