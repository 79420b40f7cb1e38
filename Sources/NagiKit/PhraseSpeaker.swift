import Speech

/// What turns a guide's words into a clip: flite by default (`FliteSpeaker`); an app may give its own
/// recordings or another synthesizer. Called while a soundtrack is prepared, never while it renders.
public protocol PhraseSpeaker: Sendable {
    /// `text` spoken in `voice` (an implementation may ignore it), mono, at `sampleRate` Hz, as Floats in
    /// −1…1. The guide then high-passes and levels it so the words carry over the sound.
    /// - Throws: `SoundtrackError.unspeakable` for words that cannot be spoken, or another `SoundtrackError`.
    func speak(_ text: String, voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [Float]

    /// Every one of `texts` as `speak` gives it, in order: a speaker that can say many phrases at once faster than
    /// one by one (flite in several processes) implements it; the default speaks them one by one.
    /// - Throws: the first failure in the order of `texts`, as `speak` throws it.
    func speakAll(_ texts: [String], voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [[Float]]
}

extension PhraseSpeaker {
    public func speakAll(_ texts: [String], voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [[Float]] {
        var clips: [[Float]] = []
        for text in texts { clips.append(try speak(text, voice: voice, sampleRate: sampleRate)) }
        return clips
    }
}
