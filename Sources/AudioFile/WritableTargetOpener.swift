import NagiSystem
import Glibc

/// Opens an existing non-regular target (a named pipe, /dev/null) for writing without ever blocking in `open`.
///
/// A FIFO opened for writing blocks in the kernel until a reader comes, and a signal may be delivered to another
/// thread, so Ctrl-C could not end the wait. Here the open is non-blocking: a FIFO without a reader fails with
/// ENXIO, and it is tried again every 20 ms until a reader comes or `shouldStop` says to give up. The descriptor
/// returned is blocking again, as writers expect.
package enum WritableTargetOpener {
    /// How long to wait between tries of a FIFO without a reader.
    static let retryMicroseconds: useconds_t = 20_000

    /// A descriptor for `path` (O_WRONLY, close-on-exec), or the errno: EINTR when `shouldStop` ended the wait.
    package static func open(_ path: String, shouldStop: () -> Bool) -> Result<Int32, SystemCall.Failure> {
        let isFIFO = FileKind.of(path) == .pipe
        while true {
            switch SystemCall.open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK) {
            case let .success(descriptor):
                let flags = fcntl(descriptor, F_GETFL)
                if flags < 0 || fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) < 0 {
                    let code = errno
                    _ = SystemCall.close(descriptor)
                    return .failure(Errno(code))
                }
                return .success(descriptor)
            case let .failure(failure):
                // ENXIO on a FIFO is "no reader yet"; on anything else it is final.
                guard isFIFO, failure.code == ENXIO else { return .failure(failure) }
                if shouldStop() { return .failure(Errno(EINTR)) }
                usleep(retryMicroseconds)
            }
        }
    }
}
