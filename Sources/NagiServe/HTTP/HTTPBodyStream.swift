import CNagiHTTP
import Glibc
import NagiKit
import Synchronization

/// A response body produced while it is sent: a producer on a thread of its own writes into a pipe, and the
/// connection reads the other end as the client takes it, so the client's pace holds the producer back (a full
/// pipe blocks its writes) and a client that goes away stops it (its next write fails with EPIPE, and its
/// cancellation token says stop).
///
/// Each end of the pipe has one owner that closes it: the producer's thread the write end, when it returns; the
/// reader the read end, with `finish()` when the response is over (or the stream's end of life). `cancel()`, which
/// any thread may call, closes nothing: it tells the producer to stop, and the producer's return ends the body.
package final class HTTPBodyStream: Sendable {
    private struct State {
        /// The end the reader reads; -1 once finished.
        var readDescriptor: Int32
        /// Bytes the producer writes first that the client is not sent (a range that starts inside a frame).
        var skipByteCount: Int
        /// Whether the producer said it failed: the body then ends as an error (the client sees it cut short), not
        /// as a whole one.
        var failed = false
        /// Whether `cancel` was called: what is read after it is not a whole body.
        var cancelled = false
    }

    private let state: Mutex<State>
    private let source = CancellationSource()

    /// Starts `produce` on a thread of its own with the pipe's write end (closed when it returns) and a token
    /// that says stop once the client is gone or the server stops; it returns whether it wrote the whole body. The
    /// first `skipByteCount` bytes it writes are not sent. `onEnd` is told when the producer has returned.
    /// - Throws: `HTTPServerError.system` when no pipe or thread can be made.
    package init(
        skipping skipByteCount: Int = 0, onEnd: @escaping @Sendable () -> Void = {},
        produce: @escaping @Sendable (_ descriptor: Int32, _ cancel: Cancellation) -> Bool
    ) throws(HTTPServerError) {
        var ends: [Int32] = [0, 0]
        guard nagi_http_pipe(&ends, Self.pipeByteCount) == 0 else { throw .system(call: "pipe2", code: errno) }
        state = Mutex(State(readDescriptor: ends[0], skipByteCount: skipByteCount))
        let token = source.token
        let writeDescriptor = ends[1]
        let started = DetachedThread.start { [self] in
            // A write to a pipe whose reader has gone raises SIGPIPE in the writing thread, which would end the whole
            // process wherever the host has not ignored it (a server in process, a test): blocked here, the write
            // fails with EPIPE instead, and the producer stops.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            let succeeded = produce(writeDescriptor, token)
            if !succeeded { state.withLock { $0.failed = true } }
            close(writeDescriptor)
            onEnd()
        }
        guard started else {
            close(ends[0])
            close(ends[1])
            state.withLock { $0.readDescriptor = -1 }
            throw .system(call: "pthread_create", code: EAGAIN)
        }
    }

    /// The pipe's size asked for, bytes: fewer wake-ups between producer and connection for the same bytes (1 MiB
    /// is the most an unprivileged process gets; a smaller pipe is kept if refused).
    static let pipeByteCount: Int32 = 1 << 20

    /// Reads up to `count` bytes into `buffer`: the count read, 0 at the end of the body, -1 on failure, once
    /// cancelled or once finished. Called by the reader alone.
    package func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        let (descriptor, skip) = state.withLock { ($0.readDescriptor, $0.skipByteCount) }
        guard descriptor >= 0 else { return -1 }
        var skipping = skip
        while skipping > 0 {
            let result = Glibc.read(descriptor, buffer, min(count, skipping))
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return result }
            skipping -= result
            state.withLock { $0.skipByteCount = skipping }
        }
        while true {
            let result = Glibc.read(descriptor, buffer, count)
            if result < 0, errno == EINTR { continue }
            // The end of a body whose producer failed, or was told to stop, is a failure too.
            if result == 0, state.withLock({ $0.failed || $0.cancelled }) { return -1 }
            return result
        }
    }

    /// Tells the producer to stop (its token says so; it then returns and the body ends). Any thread, any number of
    /// times.
    package func cancel() {
        state.withLock { $0.cancelled = true }
        source.cancel()
    }

    /// Ends the reader's side: the producer is told to stop and the read end is closed (a producer still writing
    /// then fails with EPIPE). Called by the reader alone, when the response is over, complete or not.
    package func finish() {
        cancel()
        let descriptor = state.withLock { state -> Int32 in
            defer { state.readDescriptor = -1 }
            return state.readDescriptor
        }
        if descriptor >= 0 { close(descriptor) }
    }

    deinit {
        finish()
    }
}
