import Locking
import CNagiHTTP
import Glibc
import NagiKit

/// A response body produced while it is sent: a producer on a thread of its own writes into a pipe, and the
/// connection takes the bytes as the client does. A client that goes away stops the producer (its cancellation
/// token says stop, and its next write fails with EPIPE).
///
/// Straight (no spool), the connection reads the pipe itself, so the client's pace holds the producer back (a full
/// pipe blocks its writes). Spooled (`spoolFolder`), a relay thread moves the pipe's bytes into a `BodySpool` as fast
/// as they come, and the connection reads them from there: the producer never waits for the client, so a render
/// ends, and gives back its slot, however slowly its client reads. A body may also be a finished file
/// (`init(completeFile:…)`), sent from a spool that is complete from the start.
///
/// Each end of the pipe has one owner that closes it: the producer's thread the write end, when it returns; the
/// reader (or the relay) the read end. `cancel()`, which any thread may call, closes nothing: it tells the producer
/// to stop, and the producer's return ends the body. `finish()`, the reader's, ends its side.
package final class HTTPBodyStream: Sendable {
    private struct State {
        /// The end the reader reads, when not spooled; -1 once finished, or when spooled.
        var readDescriptor: Int32
        /// Bytes the producer writes first that the client is not sent (a range that starts inside a frame), when
        /// not spooled.
        var skipByteCount: Int
        /// The next byte of the spool the reader reads (the first is past the bytes skipped), when spooled.
        var spoolOffset: Int64
        /// The client's socket, looked at while the reader waits for the producer; -1 until `watchClient`.
        var clientSocket: Int32 = -1
        /// Whether the producer said it failed: the body then ends as an error (the client sees it cut short), not
        /// as a whole one.
        var failed = false
        /// Whether `cancel` was called: what is read after it is not a whole body.
        var cancelled = false
    }

    private let state: Locked<State>
    /// Where the reader reads, when spooled.
    private let spool: BodySpool?
    private let source = CancellationSource()

    /// Starts `produce` on a thread of its own with the pipe's write end (closed when it returns) and a token
    /// that says stop once the client is gone or the server stops; it returns whether it wrote the whole body. The
    /// first `skipByteCount` bytes it writes are not sent. With `spoolFolder`, the body is spooled through a nameless
    /// file there. `onEnd` is told when the producer has returned.
    /// - Throws: `HTTPServerError.system` when no pipe, spool or thread can be made.
    package init(
        skipping skipByteCount: Int = 0, spoolFolder: String? = nil, onEnd: @escaping @Sendable () -> Void = {},
        produce: @escaping @Sendable (_ descriptor: Int32, _ cancel: Cancellation) -> Bool
    ) throws(HTTPServerError) {
        var ends: [Int32] = [0, 0]
        let spool = try spoolFolder.map { folder throws(HTTPServerError) in try BodySpool(inFolder: folder) }
        self.spool = spool
        guard nagi_http_pipe(&ends, Self.pipeByteCount) == 0 else { throw .system(call: "pipe2", code: errno) }
        state = Locked(State(readDescriptor: spool == nil ? ends[0] : -1, skipByteCount: skipByteCount, spoolOffset: Int64(skipByteCount)))
        let token = source.token
        let writeDescriptor = ends[1]
        if let spool {
            let pipeEnd = ends[0]
            guard DetachedThread.start({ [self] in relay(from: pipeEnd, into: spool) }) else {
                close(ends[0])
                close(ends[1])
                throw .system(call: "pthread_create", code: EAGAIN)
            }
        }
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
            if spool == nil { close(ends[0]) } else { spool?.cancel() }
            close(ends[1])
            state.withLock { $0.readDescriptor = -1 }
            throw .system(call: "pthread_create", code: EAGAIN)
        }
    }

    /// A body of the `byteCount` bytes of `file` (a finished file, unlinked, which the body now owns), from byte
    /// `skipByteCount`: no producer, nothing waited for.
    package init(completeFile file: Int32, byteCount: Int64, skipping skipByteCount: Int64 = 0) {
        spool = BodySpool(completeFile: file, byteCount: byteCount)
        state = Locked(State(readDescriptor: -1, skipByteCount: 0, spoolOffset: skipByteCount))
    }

    /// The pipe's size asked for, bytes: fewer wake-ups between producer and connection for the same bytes (1 MiB
    /// is the most an unprivileged process gets; a smaller pipe is kept if refused).
    static let pipeByteCount: Int32 = 1 << 20

    /// Bytes the relay moves at a time.
    private static let relayByteCount = 256 * 1024

    /// Moves the pipe's bytes into `spool` until the producer closes its end (the spool then complete, or failed as
    /// the producer says), or the spool is cancelled (the pipe then closed, so the producer's next write fails). The
    /// relay owns the pipe's read end.
    private func relay(from pipeEnd: Int32, into spool: BodySpool) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.relayByteCount, alignment: 16)
        defer {
            buffer.deallocate()
            close(pipeEnd)
        }
        while true {
            let count = Glibc.read(pipeEnd, buffer, Self.relayByteCount)
            if count < 0, errno == EINTR { continue }
            if count > 0 {
                guard spool.append(buffer, count: count) else { return }
                continue
            }
            // The end of the pipe: the producer has returned (its flag is set before it closes its end).
            spool.finish(failed: count < 0 || state.withLock { $0.failed || $0.cancelled })
            return
        }
    }

    /// Watches `socket`, the client's, while the reader waits for the producer: a client gone cancels the body.
    /// Called on the connection's thread, which owns the socket for as long as it reads.
    func watchClient(socket: Int32) {
        state.withLock { $0.clientSocket = socket }
    }

    /// Reads up to `count` bytes into `buffer`: the count read, 0 at the end of the body, -1 on failure, once
    /// cancelled or once finished. Called by the reader alone.
    package func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        if let spool {
            let (socket, offset) = state.withLock { ($0.clientSocket, $0.spoolOffset) }
            let result = spool.read(into: buffer, count: count, at: offset, isAbandoned: { nagi_http_peer_gone(socket) != 0 })
            if result > 0 { state.withLock { $0.spoolOffset += Int64(result) } }
            if result < 0 { cancel() }
            return result
        }
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

    /// Tells the producer to stop (its token says so; it then returns and the body ends) and a spool to end as an
    /// error. Any thread, any number of times.
    package func cancel() {
        state.withLock { $0.cancelled = true }
        source.cancel()
        spool?.cancel()
    }

    /// Ends the reader's side: the producer is told to stop and the pipe's read end, when the reader holds it, is
    /// closed (a producer still writing then fails with EPIPE). Called by the reader alone, when the response is
    /// over, complete or not.
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
