import CNagiHTTP
import Glibc
import Locking
import NagiSystem

/// A response body kept in a nameless temporary file as it is made, and read back at the client's own pace: the
/// maker never waits for the client (a render finishes, and gives its slot back, beside a client that reads nothing),
/// and a client never waits longer than the maker takes (it reads each byte as soon as it is in the file).
///
/// The file has no name (`O_TMPFILE`, or a name unlinked at once where the file system has none), so it is gone when
/// its descriptor closes, whatever way the response ends.
final class BodySpool: @unchecked Sendable {
    // @unchecked: `progress` is only read and written under `state`; the descriptor is set once and closed in
    // deinit, and the file's bytes are written only past `progress.byteCount` (by the one maker) and read only
    // below it.
    /// What the maker has done so far.
    private struct Progress {
        /// Bytes in the file.
        var byteCount: Int64 = 0
        /// Whether the maker has finished (all its bytes are in).
        var isComplete = false
        /// Whether the maker failed, or the spool was cancelled: the body ends as an error.
        var failed = false
    }

    /// The spool's file, open for reading and writing; closed with the spool.
    private let descriptor: Int32
    private let state = ConditionLock()
    private var progress = Progress()

    /// A new empty spool in `folder`.
    /// - Throws: `HTTPServerError.system` when no file can be made there.
    init(inFolder folder: String) throws(HTTPServerError) {
        let opened = nagi_http_spool_file(folder)
        guard opened >= 0 else { throw .system(call: "open(O_TMPFILE)", code: errno) }
        descriptor = opened
    }

    /// A complete spool of the `byteCount` bytes of `file` (a finished download, already unlinked), which it now owns.
    init(completeFile file: Int32, byteCount: Int64) {
        descriptor = file
        progress = Progress(byteCount: byteCount, isComplete: true, failed: false)
    }

    deinit {
        close(descriptor)
    }

    /// Appends `count` bytes from `bytes`; false once cancelled or when the file cannot take them (the body then ends
    /// as an error).
    func append(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        let offset = state.withLockWakingAll { progress.failed ? -1 : progress.byteCount }
        guard offset >= 0 else { return false }
        // Only this writer changes the file's length, so the write needs no lock; readers read below `byteCount`.
        var written = 0
        while written < count {
            let result = pwrite(descriptor, bytes + written, count - written, off_t(offset) + off_t(written))
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                finish(failed: true)
                return false
            }
            written += result
        }
        return state.withLockWakingAll { () -> Bool in
            guard !progress.failed else { return false }
            progress.byteCount += Int64(count)
            return true
        }
    }

    /// Says the maker is done: every byte is in, or (`failed`) the body is to end as an error.
    func finish(failed: Bool) {
        state.withLockWakingAll {
            progress.isComplete = true
            if failed { progress.failed = true }
        }
    }

    /// Ends the body as an error at once: readers waiting are woken, and the next append is refused.
    func cancel() {
        finish(failed: true)
    }

    /// Reads up to `count` bytes at `offset` into `buffer`, waiting for the maker while it has not written that far:
    /// the count read, 0 at the end of a complete body, -1 once it failed or was cancelled. While it waits,
    /// `isAbandoned` is asked every `pollMilliseconds`; true gives -1 (the client has gone).
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64, isAbandoned: () -> Bool) -> Int {
        while true {
            let (available, isComplete, failed) = state.waitUntil(timeoutMilliseconds: Self.pollMilliseconds, {
                progress.failed || progress.isComplete || progress.byteCount > offset
            }, then: { _ in (progress.byteCount - offset, progress.isComplete, progress.failed) })
            if failed { return -1 }
            if available > 0 {
                while true {
                    let result = pread(descriptor, buffer, min(count, Int(available)), off_t(offset))
                    if result < 0, errno == EINTR { continue }
                    return result > 0 ? result : -1
                }
            }
            if isComplete { return 0 }
            if isAbandoned() { return -1 }
        }
    }

    /// How often a reader waiting for the maker looks whether its client is still there, milliseconds.
    static let pollMilliseconds = 200
}
