import GuideSources
import Speech

/// The guide's words spoken by flite (the library, loaded when it first speaks; not the command-line tool) and
/// resampled by libsoxr to the session's rate.
public struct FliteSpeaker: PhraseSpeaker {
    /// How many processes speak a guide's phrases at once: above 1, this one and forked children that run only
    /// flite (flite's global state keeps it to one thread a process). The samples are the same either way.
    public let processCount: Int

    /// flite and its four voices, speaking in up to `processCount` processes at once (1: in this process
    /// only, no child is ever forked: the default, as a library should not fork unasked).
    public init(processCount: Int = 1) {
        self.processCount = max(1, processCount)
    }

    /// `text` checked (`SpeechPhrase`), spoken by flite in `voice` and resampled to `sampleRate`.
    public func speak(_ text: String, voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [Float] {
        let checked: SpeechPhrase
        do { checked = try SpeechPhrase(text) } catch { throw .unspeakable(text: text, reason: error.message) }
        do {
            return try SpokenCue.clip(checked, voice: voice, sampleRate: sampleRate).samples
        } catch {
            throw .spokenCue(error)
        }
    }

    /// `texts` spoken (`speak`), flite running in up to `processCount` processes at once.
    public func speakAll(_ texts: [String], voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [[Float]] {
        var phrases: [SpeechPhrase] = []
        for text in texts {
            do { phrases.append(try SpeechPhrase(text)) } catch { throw .unspeakable(text: text, reason: error.message) }
        }
        // Spoken (and cached) in processes first; `speak` then finds each clip cached, or meets its failure in order.
        _ = SpeechSynthesizer(voice: voice).speakAll(phrases, processCount: processCount)
        return try texts.map { text throws(SoundtrackError) in try speak(text, voice: voice, sampleRate: sampleRate) }
    }
}
