import NagiSystem

/// Writes small text outputs (labels, playlists, manifests, SVG, progress records) safely: never a partial
/// file at the target path.
package enum TextFileOutput {
    /// The path that stands for standard output on the command line (which writes it itself: never a file here).
    package static let standardOutputPath = "-"

    /// Writes `text` to `path` through a temporary file in the same folder, fsync and a rename (see
    /// `PendingTextFile`). An existing regular file is kept unless `overwrite`; a non-regular target (a
    /// pipe, /dev/null, /dev/stdout) is written straight.
    package static func write(_ text: String, to path: String, overwrite: Bool) throws(TextFileError) {
        try PendingTextFile(path: path, text: text, overwrite: overwrite).publish()
    }

    /// Whether `path` exists as a regular file (so writing it needs `overwrite`).
    package static func isExistingRegularFile(_ path: String) -> Bool {
        path != standardOutputPath && FileKind.of(path) == .regularFile
    }
}
