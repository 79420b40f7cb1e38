import Foundation

/// An ALSA configuration that defines no device at all, for tests that need "no sound device" to be true.
///
/// A desktop's `default` is often routed to PulseAudio or PipeWire (and opens); a machine may have a card. Pointing
/// `ALSA_CONFIG_PATH` at an empty file makes alsa-lib read nothing else (neither its own `alsa.conf` nor
/// `/etc/asound.conf` nor `~/.asoundrc`), so every PCM name, `default` too, is unknown, whatever the machine has.
/// alsa-lib reads its configuration once per process: set it only in a child process's environment.
public enum EmptyALSAConfiguration {
    /// The environment variable alsa-lib reads its top configuration file from.
    public static let variable = "ALSA_CONFIG_PATH"

    /// A fresh empty configuration file in its own temporary folder (kept alive by `folder`).
    public static func make() throws -> (folder: TemporaryFolder, path: String) {
        let folder = try TemporaryFolder()
        let path = folder.file("empty-asound.conf")
        try Data().write(to: URL(fileURLWithPath: path))
        return (folder, path)
    }
}
