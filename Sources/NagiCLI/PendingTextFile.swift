import AudioFile
import Glibc
import NagiKit

/// A small text output (labels, SVG) prepared before the work it goes with and published after it, so that a
/// command's outputs appear together or not at all.
///
/// A regular (or missing) target gets its whole text in a hidden temporary file beside it at once, fsynced, so
/// every way it can fail (no folder, no permission, a full disk) fails before any rendering; `publish()` renames
/// it into place. A non-regular target (a pipe, /dev/null) and standard output ("-") are written at `publish()`.
/// Released unpublished, the temporary file is removed.
final class PendingTextFile {
    let path: String
    private let bytes: [UInt8]
    /// The hidden temporary file holding the text, nil for a target written straight.
    private var temporaryPath: String?
    private var isPublished = false

    /// Checks `path` and, for a regular target, writes `text` into its temporary file.
    /// - Throws: 73 when an existing regular file is in the way without `overwrite`, the path is a folder, or the
    ///   temporary file cannot be created; 74 when writing it fails.
    init(path: String, text: String, overwrite: Bool) throws(CLIError) {
        self.path = path
        bytes = Array(text.utf8)
        if path == OutputChoice.standardOutputPath { return }
        switch FileSystem.kind(of: path) {
        case .folder:
            throw .cannotCreate("cannot write '\(path)': it is a folder")
        case .other:
            return
        case .regularFile:
            guard overwrite else { throw .cannotCreate("'\(path)' already exists; use --force to replace it") }
        case .missing:
            break
        }
        let folder = FileSystem.folder(of: path)
        guard FileSystem.kind(of: folder) == .folder else {
            throw .cannotCreate("cannot create '\(path)': the folder '\(folder)' does not exist")
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = folder + "/." + name + ".nagi-partial-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotCreate("cannot create '\(path)': \(FileSystem.lastErrorText)") }
        let written = FileSystem.writeAll(descriptor, bytes) && fsync(descriptor) == 0
        let reason = FileSystem.lastErrorText
        close(descriptor)
        guard written else {
            unlink(temporary)
            throw .io("cannot write '\(path)': \(reason)")
        }
        temporaryPath = temporary
    }

    deinit {
        discard()
    }

    /// Puts the text at the target: renames the temporary file into place, or writes a pipe, a device or
    /// standard output now. Only once.
    /// - Throws: 73 when the rename fails, 74 when a write fails, 141 when standard output's reader has gone.
    func publish() throws(CLIError) {
        guard !isPublished else { return }
        isPublished = true
        if let temporaryPath {
            self.temporaryPath = nil
            if rename(temporaryPath, path) != 0 {
                let reason = FileSystem.lastErrorText
                unlink(temporaryPath)
                throw .cannotCreate("cannot create '\(path)': \(reason)")
            }
            return
        }
        if path == OutputChoice.standardOutputPath {
            guard FileSystem.writeAll(STDOUT_FILENO, bytes) else {
                if errno == EPIPE || ClosedPipe.isClosed(STDOUT_FILENO) { throw .audioFile(.readerClosed(path: "standard output")) }
                throw .io("cannot write to standard output: \(FileSystem.lastErrorText)")
            }
            return
        }
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotCreate("cannot write '\(path)': \(FileSystem.lastErrorText)") }
        defer { close(descriptor) }
        guard FileSystem.writeAll(descriptor, bytes) else { throw .io("cannot write '\(path)': \(FileSystem.lastErrorText)") }
    }

    /// Removes the temporary file of an unpublished text; does nothing after `publish()`.
    func discard() {
        if let temporaryPath, !isPublished {
            unlink(temporaryPath)
            self.temporaryPath = nil
        }
    }
}
