import CNagiHTTP
import Glibc
import Locking
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
package final class HTTPBodyStream: @unchecked Sendable {
    /// The end the connection reads, when not spooled; -1 once closed or when spooled.
    private var readDescriptor: Int32
    /// Where the connection reads, when spooled.
    private let spool: BodySpool?
    /// The next byte of the spool the connection reads (the first is past the bytes skipped).
    private var spoolOffset: Int64 = 0
    /// The client's socket, looked at while the connection waits for the producer; -1 until `watchClient`.
    private var clientSocket: Int32 = -1
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
    /// first `skipByteCount` bytes it writes are not sent. With `spoolFolder`, the body is spooled through a nameless
    /// file there.
    /// - Throws: `HTTPServerError.system` when no pipe, spool or thread can be made.
    package init(
        skipping skipByteCount: Int = 0, spoolFolder: String? = nil, onEnd: @escaping @Sendable () -> Void = {},
        produce: @escaping @Sendable (_ descriptor: Int32, _ cancel: Cancellation) -> Bool
    ) throws(HTTPServerError) {
        self.skipByteCount = skipByteCount
        var ends: [Int32] = [0, 0]
        let spool = try spoolFolder.map { folder throws(HTTPServerError) in try BodySpool(inFolder: folder) }
        self.spool = spool
        guard nagi_http_pipe(&ends, Self.pipeByteCount) == 0 else { throw .system(call: "pipe2", code: errno) }
        readDescriptor = spool == nil ? ends[0] : -1
        spoolOffset = Int64(skipByteCount)
        self.onEnd = onEnd
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
            let succeeded = produce(writeDescriptor, token)
            if !succeeded { lock.withLock { failed = true } }
            close(writeDescriptor)
            onEnd()
        }
        guard started else {
            if spool == nil { close(ends[0]) } else { spool?.cancel() }
            close(ends[1])
            throw .system(call: "pthread_create", code: EAGAIN)
        }
    }

    /// A body of the `byteCount` bytes of `file` (a finished file, unlinked, which the body now owns), from byte
    /// `skipByteCount`: no producer, nothing waited for.
    package init(completeFile file: Int32, byteCount: Int64, skipping skipByteCount: Int64 = 0) {
        spool = BodySpool(completeFile: file, byteCount: byteCount)
        spoolOffset = skipByteCount
        readDescriptor = -1
        self.skipByteCount = 0
        onEnd = {}
    }

    /// The pipe's size asked for, bytes: fewer wake-ups between producer and connection for the same bytes (1 MiB
    /// is the most an unprivileged process gets; a smaller pipe is kept if refused).
    static let pipeByteCount: Int32 = 1 << 20

    /// Bytes the relay moves at a time.
    private static let relayByteCount = 256 * 1024

    /// Moves the pipe's bytes into `spool` until the producer closes its end (the spool then complete, or failed as
    /// the producer says), or the spool is cancelled (the pipe then closed, so the producer's next write fails).
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
            spool.finish(failed: count < 0 || lock.withLock { failed })
            return
        }
    }

    /// Watches `socket`, the client's, while the connection waits for the producer: a client gone cancels the body.
    func watchClient(socket: Int32) {
        lock.withLock { clientSocket = socket }
    }

    /// Reads up to `count` bytes into `buffer`: the count read, 0 at the end of the body, -1 on failure or once
    /// cancelled.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        if let spool {
            let socket = lock.withLock { clientSocket }
            let result = spool.read(into: buffer, count: count, at: spoolOffset, isAbandoned: { nagi_http_peer_gone(socket) != 0 })
            if result > 0 { spoolOffset += Int64(result) }
            if result < 0 { cancel() }
            return result
        }
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
        spool?.cancel()
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
