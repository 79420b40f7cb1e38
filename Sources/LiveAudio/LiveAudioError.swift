import NagiBase

/// What went wrong with live playback: data first, `message` for people apart.
public enum LiveAudioError: Error, Equatable, Sendable {
    /// The device could not be opened or configured (no sound card, unknown name, format or rate refused).
    /// `reason` names the ALSA call and its snd_strerror text.
    case deviceUnavailable(device: String, reason: String)
    /// The device failed mid-session beyond recovery (ENODEV: unplugged, or a failed snd_pcm_recover).
    case deviceLost(device: String, reason: String)

    /// What kind of fault this is: the device is not there, or failed part way.
    public var category: FaultCategory {
        switch self {
        case .deviceUnavailable: .unavailable
        case .deviceLost: .inputOutput
        }
    }

    /// One human sentence, without a trailing newline.
    public var message: String {
        switch self {
        case let .deviceUnavailable(device, reason):
            "cannot play on ALSA device '\(device)' because \(reason)"
        case let .deviceLost(device, reason):
            "Lost ALSA device '\(device)' during playback because \(reason)"
        }
    }
}
