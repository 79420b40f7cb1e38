import NagiSystem
import Glibc

/// An exclusive lock on a folder, held while one process writes into it: `flock(2)` on the folder itself, so no
/// lock file is made or left behind, and the kernel lets the lock go when the holder dies, however it dies.
/// A second holder waits (polling, so that a cancellation still reaches it) until the first lets go.
final class FolderLock {
    private var descriptor: Int32

    /// Takes the lock on `folder`, telling `waiting` once if another process holds it, and waiting for it.
    /// - Throws: `.cannotCreate` when the folder cannot be opened or locked, `.cancelled` when `cancel` says stop
    ///   while waiting.
    init(folder: String, waiting: () -> Void, cancel: Cancellation) throws(SoundtrackError) {
        descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotCreate(path: folder, reason: FileSystem.lastErrorText) }
        var toldWaiting = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                throw .cannotCreate(path: folder, reason: "cannot lock it: \(Errno(code).description)")
            }
            if !toldWaiting {
                waiting()
                toldWaiting = true
            }
            if cancel.isCancelled {
                close(descriptor)
                throw .cancelled
            }
            usleep(Self.pollMicroseconds)
        }
    }

    /// How often a waiting holder asks again, microseconds: a stop is seen within this.
    static let pollMicroseconds: UInt32 = 50_000

    /// Lets the lock go (closing the folder); a second call does nothing.
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit {
        release()
    }
}
