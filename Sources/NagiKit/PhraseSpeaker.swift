import Speech

/// What turns a guide's words into a clip: flite by default (`FliteSpeaker`); an app may give its own
/// recordings or another synthesizer. Called while a soundtrack is prepared, never while it renders.
public protocol PhraseSpeaker: Sendable {
    /// `text` spoken in `voice` (an implementation may ignore it), mono, at `sampleRate` Hz, as Floats in
    /// −1…1. The guide then high-passes and levels it so the words carry over the sound.
    /// - Throws: `SoundtrackError.unspeakable` for words that cannot be spoken, or another `SoundtrackError`.
    func speak(_ text: String, voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [Float]
}
