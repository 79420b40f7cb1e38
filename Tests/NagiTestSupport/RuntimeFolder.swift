import Foundation
import Glibc

/// Gives this test process an `XDG_RUNTIME_DIR` of its own when the machine gave it none.
///
/// alsa-lib runs the pulse plugin's "load if running" hook (`/etc/alsa/conf.d/99-pulse.conf`) each time it
/// reads its configuration, for any device, `file:` and unknown names too. That hook is a PulseAudio client,
/// and a client without `XDG_RUNTIME_DIR` (a root shell on a bare machine) makes a runtime folder
/// `pulse-XXXXXXXXXXXX` in TMPDIR and a link to it in `~/.config/pulse`, left behind. With the variable set
/// it uses `$XDG_RUNTIME_DIR/pulse` instead, inside a folder removed when the process exits.
public enum RuntimeFolder {
    /// Sets `XDG_RUNTIME_DIR` to a fresh temporary folder if it is unset; once per process, before the first
    /// in-process ALSA open (child processes get theirs in their own environment).
    public static func ensure() {
        _ = assigned
    }

    private static let assigned: Void = {
        guard getenv("XDG_RUNTIME_DIR") == nil, let folder = try? TemporaryFolder.makeURL() else { return }
        setenv("XDG_RUNTIME_DIR", folder.path, 0)
    }()
}
