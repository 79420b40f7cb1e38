import CNagiSpeech

/// One of the flite voices nagi speaks with (all US English, all 16 kHz), each loaded when first used.
public enum SpeechVoice: String, CaseIterable, Sendable {
    /// A female voice (clustergen); the default, the clearest of the four over a bed.
    case slt
    /// A male voice (clustergen).
    case rms
    /// A male voice with a Scottish accent (clustergen).
    case awb
    /// A male diphone voice, the oldest and most mechanical.
    case kal16

    /// The voice nagi speaks with unless told otherwise.
    public static let standard: SpeechVoice = .slt

    /// A new flite voice (flite and the voice's library loaded on first use; flite keeps it for the life of the
    /// process), or nil when flite or the voice cannot be loaded. Call under the flite lock.
    func register() -> UnsafeMutableRawPointer? {
        guard nagi_flite_load() == nil else { return nil }
        return nagi_flite_register_voice(rawValue)
    }
}
