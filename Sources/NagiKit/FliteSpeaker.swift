import GuideSources
import Speech

/// The guide's words spoken by flite (linked, not the command-line tool) and resampled by libsoxr to the
/// session's rate.
public struct FliteSpeaker: PhraseSpeaker {
    /// flite, with the voices it links.
    public init() {}

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
}
