import CMicroHTTPD
import CNagiHTTP
import Glibc
import Locking

/// The server's accept loop, in front of libmicrohttpd: it meets every connection first, so that the requests
/// libmicrohttpd would answer itself (malformed, too large; plain HTTP on the HTTPS port), with none of nagi's
/// headers and no hook to add them, are answered by nagi instead.
///
/// One thread polls the listening socket and every connection still sending its first request's head. Each head is
/// read with `MSG_PEEK`, so its bytes stay for libmicrohttpd, and judged by `RequestHeadCheck`: a whole, well-formed
/// head hands the connection over (`MHD_add_connection`); a bad one is answered (`answer`'s response, with
/// `Connection: close`) and closed; a head not whole by its deadline is closed. On the HTTPS port the first byte
/// decides: a TLS handshake goes over at once, anything else is plain HTTP, answered 400 with the https:// URL.
///
/// It counts the connections at once, in all and per client address, from their accepting to their closing (at the
/// door, or by libmicrohttpd: `released`). One past the limits is answered 503 with `Retry-After` at once (no head
/// read) and closed; on the HTTPS port, or past `overLimitAnswerCount` such answers still draining, it is closed
/// unanswered.
///
/// Ownership: the listening socket is the door's (closed by its thread when it stops, or by `deinit` when it never
/// started); a connection's socket is the door's thread's until it is handed over (then libmicrohttpd's, which closes
/// it even when it refuses it); the wake pipe is the door's, closed by `deinit`.
final class FrontDoor: Sendable {
    private struct Counts {
        var total = 0
        var perAddress: [String: Int] = [:]
        var lateCount = 0
        var isStarted = false
        var isFinished = false

        /// One connection from `address` is over.
        mutating func release(_ address: String) {
            total = max(0, total - 1)
            let left = (perAddress[address] ?? 1) - 1
            perAddress[address] = left > 0 ? left : nil
        }
    }

    private let limits: HTTPServer.Limits
    private let check: RequestHeadCheck
    /// Whether the port speaks HTTPS (libmicrohttpd's GnuTLS): plain HTTP on it is answered 400.
    private let isTLS: Bool
    /// The port, for the https:// URL told to a plain HTTP client.
    private let port: UInt16
    private let answer: HTTPServer.Refusal
    private let listening: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let counts = Locked(Counts())
    /// Wakes `stop` when the thread has finished.
    private let finishing = ConditionLock()

    /// A door on `listening` (bound and listening; the door owns it from here, and closes it on failure too) with
    /// `limits` (the connections at once, the first head's time and size), for HTTPS on `port` when `isTLS`.
    /// - Throws: `.system` when no wake pipe can be made.
    init(listening: Int32, limits: HTTPServer.Limits, isTLS: Bool, port: UInt16, answer: @escaping HTTPServer.Refusal) throws(HTTPServerError) {
        var ends: [Int32] = [-1, -1]
        guard nagi_http_pipe(&ends, 0) == 0 else {
            let code = errno
            close(listening)
            throw .system(call: "pipe2", code: code)
        }
        // Accepting never blocks the thread: a connection gone between poll and accept leaves nothing to take.
        _ = fcntl(listening, F_SETFL, fcntl(listening, F_GETFL) | O_NONBLOCK)
        // A stop's byte never blocks its writer.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        self.listening = listening
        wakeRead = ends[0]
        wakeWrite = ends[1]
        self.limits = limits
        check = RequestHeadCheck(
            requestLineByteCount: limits.requestLineByteCount, headByteCount: limits.headByteCount, headerLineCount: limits.headerLineCount)
        self.isTLS = isTLS
        self.port = port
        self.answer = answer
    }

    deinit {
        if !counts.withLock({ $0.isStarted }) { close(listening) }
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts the door's thread, handing connections to `daemon` (libmicrohttpd's, started with no listening socket,
    /// as an integer address; it must outlive the door's thread: `stop` the door first); false when no thread could
    /// be started.
    func start(daemon: UInt) -> Bool {
        counts.withLock { $0.isStarted = true }
        let started = DetachedThread.start { [self] in
            run(daemon: daemon)
            finishing.withLockWakingAll { counts.withLock { $0.isFinished = true } }
        }
        if !started {
            counts.withLock { $0.isStarted = false }
        }
        return started
    }

    /// Stops the door: its thread ends, closing the listening socket and the connections still at the door, and this
    /// returns once it has (no connection is handed over after it). A second call does nothing.
    func stop() {
        guard counts.withLock({ $0.isStarted }) else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        finishing.waitUntil({ counts.withLock { $0.isFinished } }, then: { _ in })
    }

    /// Connections closed at the door for being slow to send their first head.
    var lateCount: Int { counts.withLock { $0.lateCount } }

    /// A connection handed over from `address` was closed by libmicrohttpd.
    func released(address: String) {
        counts.withLock { $0.release(address) }
    }

    // MARK: The thread

    /// A connection at the door.
    private struct Waiting {
        let socket: Int32
        let address: String
        /// The client's address as accepted, for libmicrohttpd.
        var socketAddress: sockaddr_storage
        var addressLength: socklen_t
        /// When the head must be whole (or, once answered, when the door stops waiting for the client to finish).
        var deadline: ContinuousClock.Instant
        /// Bytes seen so far: poll wakes the door again only for more (`SO_RCVLOWAT`), or at the client's end.
        var seenByteCount = 0
        /// Answered: the door reads and drops what the client still sends, then closes (closing with unread bytes
        /// would reset the connection, and the client could lose the answer).
        var isDraining = false
        /// Counted in the connections at once (false: answered 503 for being past the limits, never counted).
        var isCounted = true
    }

    /// Connections past the limits answered 503 and still draining, at the most; more are closed unanswered, so that
    /// a flood cannot hold descriptors at the door for the 503s it is owed.
    private static let overLimitAnswerCount = 64

    private func run(daemon: UInt) {
        var waiting: [Waiting] = []
        var peeked = [UInt8](repeating: 0, count: limits.headByteCount + 1)
        var pollers: [pollfd] = []
        var acceptPausedUntil: ContinuousClock.Instant?
        defer {
            for connection in waiting { close(connection.socket) }
            close(listening)
        }
        while true {
            let now = ContinuousClock.now
            if let paused = acceptPausedUntil, now >= paused { acceptPausedUntil = nil }
            pollers.removeAll(keepingCapacity: true)
            pollers.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            pollers.append(pollfd(fd: acceptPausedUntil == nil ? listening : -1, events: Int16(POLLIN), revents: 0))
            for connection in waiting {
                pollers.append(pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0))
            }
            let nearest = waiting.map(\.deadline).min().map { min($0, acceptPausedUntil ?? $0) } ?? acceptPausedUntil
            let timeout = nearest.map { Self.milliseconds(until: $0, from: now) } ?? -1
            let ready = poll(&pollers, nfds_t(pollers.count), timeout)
            if ready < 0, errno != EINTR { return }
            if pollers[0].revents != 0 { return }
            let after = ContinuousClock.now
            // Those at the door first (their pollers follow the first two, in order), then the new ones.
            var kept: [Waiting] = []
            kept.reserveCapacity(waiting.count)
            for (index, var connection) in waiting.enumerated() {
                let events = pollers[index + 2].revents
                if events != 0, look(at: &connection, buffer: &peeked, daemon: daemon, now: after) == .done { continue }
                if after >= connection.deadline {
                    if !connection.isDraining { counts.withLock { $0.lateCount += 1 } }
                    closeAtDoor(connection)
                    continue
                }
                kept.append(connection)
            }
            waiting = kept
            if pollers[1].revents != 0 {
                acceptPausedUntil = acceptAll(into: &waiting, now: after)
            }
        }
    }

    /// What became of a connection looked at.
    private enum Outcome { case done, waiting }

    /// Reads what `connection` has sent so far and acts on it: hands it over, answers it, or waits for more.
    private func look(at connection: inout Waiting, buffer: inout [UInt8], daemon: UInt, now: ContinuousClock.Instant) -> Outcome {
        if connection.isDraining {
            let count = buffer.withUnsafeMutableBytes { recv(connection.socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 || (count < 0 && (errno == EAGAIN || errno == EINTR)) { return .waiting }
            closeAtDoor(connection)
            return .done
        }
        let count = buffer.withUnsafeMutableBytes { recv(connection.socket, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT)) }
        if count < 0, errno == EAGAIN || errno == EINTR { return .waiting }
        // No more than was seen, though poll woke the door: the client shut its side (the bytes it sent stay queued,
        // so the peek does not show the end), and the head can never be whole.
        guard count > connection.seenByteCount else {
            // Gone, or reset, before its head was whole.
            closeAtDoor(connection)
            return .done
        }
        let verdict: RequestHeadCheck.Verdict
        if isTLS {
            // A TLS record of a handshake; anything else is plain HTTP on the HTTPS port.
            verdict = buffer[0] == 0x16 ? .complete : Self.plainHTTPVerdict(buffer: buffer, count: count, check: check, port: port)
        } else {
            verdict = buffer.withUnsafeBytes { check.verdict(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        switch verdict {
        case .incomplete:
            if count >= buffer.count {
                // Cannot happen (a full buffer is past the head's limit); closed rather than waited for.
                closeAtDoor(connection)
                return .done
            }
            // Poll wakes again only once more than what was seen has come (the peeked bytes stay in the queue).
            connection.seenByteCount = count
            Self.setReceiveLowWater(connection.socket, count + 1)
            return .waiting
        case .complete:
            Self.setReceiveLowWater(connection.socket, 1)
            handOver(connection, daemon: daemon)
            return .done
        case let .refuse(status, message):
            Self.setReceiveLowWater(connection.socket, 1)
            refuse(&connection, with: answer(status, message), now: now)
            return .waiting
        }
    }

    /// Sends `response` on `connection`, ends its sending side and drains it from here (`isDraining`).
    private func refuse(_ connection: inout Waiting, with response: HTTPResponse, now: ContinuousClock.Instant) {
        let bytes = Self.wireBytes(of: response)
        _ = bytes.withUnsafeBytes { send(connection.socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        shutdown(connection.socket, Int32(SHUT_WR))
        connection.isDraining = true
        connection.deadline = now + .seconds(Self.drainSeconds)
    }

    /// Seconds the door reads and drops what a client still sends after its answer, before it closes anyway.
    private static let drainSeconds: Int64 = 2

    /// The verdict on plain HTTP sent to the HTTPS port: wait for its head (or what of it fits), then 400 with the
    /// https:// URL, whatever the head.
    private static func plainHTTPVerdict(buffer: [UInt8], count: Int, check: RequestHeadCheck, port: UInt16) -> RequestHeadCheck.Verdict {
        let seen = buffer.withUnsafeBytes { check.verdict(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        if seen == .incomplete { return .incomplete }
        let host = buffer.withUnsafeBytes { RequestHeadCheck.hostName(in: UnsafeRawBufferPointer(rebasing: $0[0..<count])) } ?? "this-machine"
        return .refuse(status: 400, message: "this port speaks HTTPS: open https://\(host):\(port)/ instead")
    }

    /// Accepts every connection waiting on the listening socket: each within the limits joins `waiting`, the others
    /// are closed. Returns when accepting should pause (out of descriptors), nil otherwise.
    private func acceptAll(into waiting: inout [Waiting], now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let socket = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { nagi_http_accept(listening, $0, &length) }
            }
            if socket < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                // Out of descriptors: the connection stays in the backlog; the door looks again shortly.
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: return now + .milliseconds(100)
                case EAGAIN: return nil
                // Anything else (an error on the listening socket itself) would wake poll again at once: pause, so
                // the door never spins.
                default: return now + .milliseconds(100)
                }
            }
            let address = Self.addressText { buffer, size in
                withUnsafePointer(to: &storage) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { nagi_http_address_text($0, buffer, size) }
                }
            }
            let admitted = counts.withLock { counts -> Bool in
                guard counts.total < Int(limits.connectionCount), counts.perAddress[address, default: 0] < Int(limits.connectionsPerAddress) else { return false }
                counts.total += 1
                counts.perAddress[address, default: 0] += 1
                return true
            }
            var connection = Waiting(
                socket: socket, address: address, socketAddress: storage, addressLength: length,
                deadline: now + .milliseconds(Int64(limits.headSeconds * 1000)))
            guard admitted else {
                // A TLS client could not read a plain answer; nor can the door write one inside TLS.
                guard !isTLS, waiting.count(where: { !$0.isCounted }) < Self.overLimitAnswerCount else {
                    close(socket)
                    continue
                }
                connection.isCounted = false
                var busy = answer(503, "too many connections at once\(address.isEmpty ? "" : " from \(address)"); try again shortly")
                busy.headers.append(("Retry-After", "1"))
                refuse(&connection, with: busy, now: now)
                waiting.append(connection)
                continue
            }
            waiting.append(connection)
        }
    }

    /// Gives `connection` to libmicrohttpd, which owns its socket from here (and closes it when it cannot take it).
    private func handOver(_ connection: Waiting, daemon: UInt) {
        guard let pointer = OpaquePointer(bitPattern: daemon) else {
            closeAtDoor(connection)
            return
        }
        var storage = connection.socketAddress
        let result = withUnsafePointer(to: &storage) { address in
            address.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(pointer, connection.socket, $0, connection.addressLength) }
        }
        // Refused, it was never the library's to count: released here (its socket the library has closed).
        if result != .YES { counts.withLock { $0.release(connection.address) } }
    }

    /// Closes a connection still at the door, and stops counting it.
    private func closeAtDoor(_ connection: Waiting) {
        close(connection.socket)
        if connection.isCounted { counts.withLock { $0.release(connection.address) } }
    }

    /// An address as text, which `fill` writes as a C string into the buffer of the size it is given (0, or -1 when
    /// it cannot); empty when it cannot.
    static func addressText(_ fill: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String {
        var text = [CChar](repeating: 0, count: 64)
        let filled = text.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { fill($0, buffer.count) } ?? -1 }
        return filled == 0 ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }

    private static func setReceiveLowWater(_ socket: Int32, _ byteCount: Int) {
        var value = Int32(byteCount)
        _ = setsockopt(socket, SOL_SOCKET, SO_RCVLOWAT, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant, from now: ContinuousClock.Instant) -> Int32 {
        guard deadline > now else { return 0 }
        let (seconds, attoseconds) = (deadline - now).components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }

    /// `response` as it goes on the wire, from HTTP/1.1: its status line, its headers, its length and
    /// `Connection: close`, and its body (bytes; a stream is not sent here).
    static func wireBytes(of response: HTTPResponse) -> [UInt8] {
        let body: [UInt8]
        if case let .bytes(bytes) = response.body { body = bytes } else { body = [] }
        var head = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
        for (name, value) in response.headers where !["content-length", "connection"].contains(name.lowercased()) {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// The reason phrase of the statuses the door answers.
    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 414: "URI Too Long"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }
}
