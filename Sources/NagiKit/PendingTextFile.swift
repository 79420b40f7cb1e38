import NagiBase
import NagiSystem
import AudioFile
import Glibc

/// A small text output (labels, SVG) prepared before the work it goes with and published after it, so that a
/// command's outputs appear together or not at all.
///
/// A regular (or missing) target gets its whole text in a hidden temporary file beside it at once, fsynced, so
/// every way it can fail (no folder, no permission, a full disk) fails before any rendering; `publish()` renames
/// it into place. A non-regular target (a pipe, /dev/null) is written at `publish()`. Released unpublished, the
/// temporary file is removed. Standard output is not a path here: the command line writes `-` to its run's own.
package final class PendingTextFile {
    /// The target.
    package let path: String
    private let bytes: [UInt8]
    /// The hidden temporary file holding the text, nil for a target written straight.
    private var temporaryPath: String?
    private var isPublished = false

    /// Checks `path` and, for a regular target, writes `text` into its temporary file.
    /// - Throws: `.targetExists` for an existing regular file without `overwrite`; `.cannotCreate` when the path is
    ///   a folder or a dangling symbolic link, or the temporary file cannot be created; `.writeFailed` when writing it fails.
    package init(path: String, text: String, overwrite: Bool) throws(TextFileError) {
        self.path = path
        bytes = Array(text.utf8)
        // Refused with or without `overwrite`: never replaced, never followed to make a file elsewhere.
        if FileKind.isDanglingLink(path) { throw .cannotCreate("cannot write '\(path)': \(FileKind.danglingLinkReason)") }
        switch FileKind.of(path) {
        case .folder:
            throw .cannotCreate("cannot write '\(path)': it is a folder")
        case .pipe, .socket, .device, .symbolicLink, .other:
            return
        case .regularFile:
            guard overwrite else { throw .targetExists(path: path) }
        case .missing:
            break
        }
        let folder = FilePath(path).parent.string
        guard FileKind.of(folder) == .folder else {
            throw .cannotCreate("cannot create '\(path)': the folder '\(folder)' does not exist")
        }
        let name = FilePath(path).lastComponent
        let temporary = folder + "/." + name + ".nagi-partial-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotCreate("cannot create '\(path)': \(FileSystem.lastErrorText)") }
        let written = FileSystem.writeAll(descriptor, bytes) && fsync(descriptor) == 0
        let reason = FileSystem.lastErrorText
        close(descriptor)
        guard written else {
            unlink(temporary)
            throw .writeFailed("cannot write '\(path)': \(reason)")
        }
        temporaryPath = temporary
    }

    deinit {
        discard()
    }

    /// Puts the text at the target: renames the temporary file into place, or writes a pipe or a device now.
    /// Only once.
    /// - Throws: `.cannotCreate` when the rename fails, `.writeFailed` when a write fails.
    ///
    /// A named pipe without a reader is waited for without blocking in `open`; `stopsWaiting` is asked every 20 ms
    /// and ends the wait with `.cancelled`.
    package func publish(stopsWaiting: () -> Bool = { false }) throws(TextFileError) {
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
        let descriptor: Int32
        switch WritableTargetOpener.open(path, shouldStop: stopsWaiting) {
        case let .success(opened): descriptor = opened
        case let .failure(failure):
            if stopsWaiting() { throw .cancelled }
            throw .cannotCreate("cannot write '\(path)': \(Errno(failure.code).description)")
        }
        defer { close(descriptor) }
        guard FileSystem.writeAll(descriptor, bytes) else { throw .writeFailed("cannot write '\(path)': \(FileSystem.lastErrorText)") }
    }

    /// Removes the temporary file of an unpublished text; does nothing after `publish()`.
    package func discard() {
        if let temporaryPath, !isPublished {
            unlink(temporaryPath)
            self.temporaryPath = nil
        }
    }
}
