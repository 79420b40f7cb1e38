import NagiKit

/// Writes small text outputs (labels, playlists, manifests, SVG, progress records) safely: never a partial
/// file at the target path.
enum TextFileOutput {
    /// Writes `text` to `path` through a temporary file in the same folder, fsync and a rename (see
    /// `PendingTextFile`). An existing regular file is kept unless `overwrite` (exit 73); a non-regular target (a
    /// pipe, /dev/null, /dev/stdout) is written straight, and "-" is standard output.
    static func write(_ text: String, to path: String, overwrite: Bool) throws(CLIError) {
        try PendingTextFile(path: path, text: text, overwrite: overwrite).publish()
    }

    /// Whether `path` exists as a regular file (so writing it needs --force).
    static func isExistingRegularFile(_ path: String) -> Bool {
        path != OutputChoice.standardOutputPath && FileSystem.kind(of: path) == .regularFile
    }
}
