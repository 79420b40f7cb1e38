import CNagiHTTP
import Glibc
import Locking
import NagiKit

/// A response body produced while it is sent: a producer on a thread of its own writes into a pipe, and the
/// connection reads the other end as the client takes it, so the client's pace holds the producer back (a full
/// pipe blocks its writes) and a client that goes away stops it (its next write fails with EPIPE, and its
/// cancellation token says stop).
package final class HTTPBodyStream: @unchecked Sendable {
    /// The end the connection reads; -1 once closed.
    private var readDescriptor: Int32
    private let lock = Lock()
    private let source = CancellationSource()
    /// Told when the producer has returned (the server counts its producers, to wait for them when it stops).
    private let onEnd: @Sendable () -> Void
    /// Bytes the producer writes first that the client is not sent (a range that starts inside a frame); read and
    /// dropped by the connection's thread only.
    private var skipByteCount: Int
    /// Whether the producer said it failed: the body then ends as an error (the client sees it cut short), not as
    /// a whole one.
    private var failed = false

    /// Starts `produce` on a thread of its own with the pipe's write end (closed when it returns) and a token
    /// that says stop once the client is gone or the server stops; it returns whether it wrote the whole body. The
    /// first `skipByteCount` bytes it writes are not sent.
    /// - Throws: `HTTPServerError.system` when no pipe or thread can be made.
    package init(
        skipping skipByteCount: Int = 0, onEnd: @escaping @Sendable () -> Void = {},
        produce: @escaping @Sendable (_ descriptor: Int32, _ cancel: Cancellation) -> Bool
    ) throws(HTTPServerError) {
        self.skipByteCount = skipByteCount
        var ends: [Int32] = [0, 0]
        guard nagi_http_pipe(&ends, Self.pipeByteCount) == 0 else { throw .system(call: "pipe2", code: errno) }
        readDescriptor = ends[0]
        self.onEnd = onEnd
        let token = source.token
        let writeDescriptor = ends[1]
        let started = DetachedThread.start { [self] in
            let succeeded = produce(writeDescriptor, token)
            if !succeeded { lock.withLock { failed = true } }
            close(writeDescriptor)
            onEnd()
        }
        guard started else {
            close(ends[0])
            close(ends[1])
            throw .system(call: "pthread_create", code: EAGAIN)
        }
    }

    /// The pipe's size asked for, bytes: fewer wake-ups between producer and connection for the same bytes (1 MiB
    /// is the most an unprivileged process gets; a smaller pipe is kept if refused).
    static let pipeByteCount: Int32 = 1 << 20

    /// Reads up to `count` bytes into `buffer`: the count read, 0 at the end of the body, -1 on failure or once
    /// cancelled.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        let descriptor = lock.withLock { readDescriptor }
        guard descriptor >= 0 else { return -1 }
        while skipByteCount > 0 {
            let result = Glibc.read(descriptor, buffer, min(count, skipByteCount))
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return result }
            skipByteCount -= result
        }
        while true {
            let result = Glibc.read(descriptor, buffer, count)
            if result < 0, errno == EINTR { continue }
            // The end of a body whose producer failed is a failure too.
            if result == 0, lock.withLock({ failed }) { return -1 }
            return result
        }
    }

    /// Stops the producer (its token says stop, its next write fails) and closes the connection's end. Called when
    /// the response is over, complete or not, and when the server stops; a second call does nothing.
    package func cancel() {
        source.cancel()
        lock.withLock {
            if readDescriptor >= 0 {
                close(readDescriptor)
                readDescriptor = -1
            }
        }
    }

    deinit {
        cancel()
    }
}
