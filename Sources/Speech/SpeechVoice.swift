import CFlite

/// One of the flite voices nagi links (all US English, all 16 kHz).
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

    /// A new flite voice; flite keeps it for the life of the process. Call under the flite lock.
    func register() -> UnsafeMutablePointer<cst_voice>? {
        switch self {
        case .slt: return register_cmu_us_slt(nil)
        case .rms: return register_cmu_us_rms(nil)
        case .awb: return register_cmu_us_awb(nil)
        case .kal16: return register_cmu_us_kal16(nil)
        }
    }
}
