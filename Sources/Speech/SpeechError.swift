/// Why flite gave no speech for a phrase.
public enum SpeechError: Error, Equatable, Sendable {
    /// flite could not build the voice.
    case voiceUnavailable(SpeechVoice)
    /// `flite_text_to_wave` returned nothing for the phrase.
    case synthesisFailed(phrase: String, voice: SpeechVoice)
    /// flite spoke the phrase as silence (e.g. only symbols it does not read).
    case silent(phrase: String, voice: SpeechVoice)

    /// One line for a human.
    public var message: String {
        switch self {
        case .voiceUnavailable(let voice):
            return "flite: cannot load the voice \(voice.rawValue)"
        case .synthesisFailed(let phrase, let voice):
            return "flite_text_to_wave: no speech for \"\(phrase)\" (voice \(voice.rawValue))"
        case .silent(let phrase, let voice):
            return "flite: \"\(phrase)\" gives only silence (voice \(voice.rawValue))"
        }
    }
}
