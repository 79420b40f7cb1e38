import NagiSystem
import NagiOptions
import AudioFile
import Glibc
import NagiDocuments
import NagiKit
import NagiLive

/// `play --log FILE`: one JSON line per open hold as it ends ({"ended":"enter","retentionMs":61234,"round":2}),
/// appended to the file (created if missing), so a log keeps every session's rounds and a stopped session keeps
/// the rounds it held. Each line goes out in one write(2) on a file opened with O_APPEND: lines never interleave
/// or tear, and nothing is written before a hold ends. Owns its file descriptor.
final class RetentionLog {
    let path: String
    private var descriptor: Int32

    /// Opens `path` for appending, before anything plays: a bad path fails at once (73). Only a regular file (or
    /// a new one) is a log: a pipe, socket, device or folder is refused in `InputFile`'s words, checked before the
    /// open and again after it, and the open never waits (O_NONBLOCK: a FIFO without a reader would hold it forever).
    init(path: String) throws(NagiError) {
        self.path = path
        var status = stat()
        if FileKind.isDanglingLink(path) { throw Self.cannotOpen(path, FileKind.danglingLinkReason) }
        if stat(path, &status) == 0, let reason = FileKind(mode: status.st_mode).refusalToRead {
            throw Self.cannotOpen(path, reason)
        }
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0o644)
        guard descriptor >= 0 else { throw Self.cannotOpen(path, Errno.current.description) }
        guard fstat(descriptor, &status) == 0 else { throw Self.cannotOpen(path, Errno.current.description) }
        if let reason = FileKind(mode: status.st_mode).refusalToRead { throw Self.cannotOpen(path, reason) }
    }

    /// The error for a log that cannot be opened (73).
    private static func cannotOpen(_ path: String, _ reason: String) -> NagiError {
        .cannotCreate("cannot open the log '\(ErrorLine.printable(path))': \(reason)")
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Appends one hold's line; a failed write is reported once on stderr (the session plays on).
    func record(round: Int, retentionMilliseconds: Int64, ending: LiveSession.RetentionEnding) {
        guard descriptor >= 0 else { return }
        let line = JSONOutput.line(Line(ended: ending.rawValue, retentionMs: retentionMilliseconds, round: round))
        if !FileSystem.writeAll(descriptor, Array(line.utf8)) {
            Console.err("nagi: warning: cannot write to the log '\(ErrorLine.printable(path))': \(Errno.current.description)\n")
            close(descriptor)
            descriptor = -1
        }
    }

    /// One line of the log: the hold's round (from 1), its length in milliseconds and how it ended.
    private struct Line: Encodable {
        var ended: String
        var retentionMs: Int64
        var round: Int
    }
}
