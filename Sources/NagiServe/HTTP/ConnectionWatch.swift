import Locking
import Glibc

/// Closes connections that are slow to send their request: a client that trickles its request line and headers a
/// byte at a time, or its body, keeps libmicrohttpd's idle clock from ever running out, and with a thread per
/// connection enough of them lock every other client out. Each connection has a deadline for its request's head
/// (from its opening, or from the end of its previous answer) and another for its body; past it, a watchdog thread
/// shuts the socket down, which ends the connection on its own thread. No deadline runs while an answer is made or
/// sent: the idle timeout covers a client that stops reading.
///
/// The watch shuts sockets down through descriptors of its own (duplicates taken when a connection opens, closed
/// when it closes), so it can never reach a socket the library has closed and the system has given to another
/// connection.
final class ConnectionWatch: Sendable {
    /// Where a connection is in its request.
    enum Phase: Sendable {
        /// Waiting for a request line and headers.
        case awaitingHead
        /// Its head is read; waiting for its body.
        case awaitingBody
        /// Its request is whole; the answer is being made or sent.
        case answering
    }

    /// One open connection.
    private struct Entry {
        /// The watch's own descriptor of the connection's socket; -1 when none could be taken.
        var socket: Int32
        var phase: Phase
        var since: ContinuousClock.Instant
        var isShutDown = false
    }

    private struct State {
        var entries: [UInt: Entry] = [:]
        var isStopped = false
        /// Connections shut down for being late, since the start (for the server's tests and notes).
        var shutDownCount = 0
    }

    private let state = Locked(State())
    /// Seconds a request's line and headers may take.
    let headSeconds: Double
    /// Seconds a request's body may take once its head is read.
    let bodySeconds: Double

    init(headSeconds: Double, bodySeconds: Double) {
        self.headSeconds = headSeconds
        self.bodySeconds = bodySeconds
    }

    /// Starts the watchdog thread; false when no thread could be started.
    func start() -> Bool {
        DetachedThread.start { [self] in
            while !state.withLock({ $0.isStopped }) {
                usleep(Self.sweepMicroseconds)
                sweep(now: .now)
            }
        }
    }

    /// How often the watchdog looks: a late connection is closed at most this long after its deadline.
    private static let sweepMicroseconds: UInt32 = 200_000

    /// Stops the watchdog and closes the watch's descriptors of the connections still open.
    func stop() {
        state.withLock { state in
            state.isStopped = true
            for entry in state.entries.values where entry.socket >= 0 { close(entry.socket) }
            state.entries = [:]
        }
    }

    /// A connection opened: its head's deadline starts now. `socket` is the watch's to close.
    func opened(_ connection: UInt, socket: Int32) {
        let now = ContinuousClock.now
        state.withLock { state in
            if state.isStopped {
                if socket >= 0 { close(socket) }
                return
            }
            state.entries[connection] = Entry(socket: socket, phase: .awaitingHead, since: now)
        }
    }

    /// The connection moved to `phase`; its deadline, if the phase has one, starts now.
    func move(_ connection: UInt, to phase: Phase) {
        let now = ContinuousClock.now
        state.withLock { state in
            guard state.entries[connection] != nil else { return }
            state.entries[connection]?.phase = phase
            state.entries[connection]?.since = now
        }
    }

    /// The connection closed: the watch's descriptor of it is closed.
    func closed(_ connection: UInt) {
        state.withLock { state in
            if let entry = state.entries.removeValue(forKey: connection), entry.socket >= 0 { close(entry.socket) }
        }
    }

    /// Connections shut down for being late so far.
    var shutDownCount: Int { state.withLock { $0.shutDownCount } }

    /// Shuts down every connection past its phase's deadline at `now`.
    func sweep(now: ContinuousClock.Instant) {
        let head = Duration.milliseconds(Int64(headSeconds * 1000))
        let body = Duration.milliseconds(Int64(bodySeconds * 1000))
        state.withLock { state in
            for (key, entry) in state.entries where !entry.isShutDown && entry.socket >= 0 {
                let limit: Duration
                switch entry.phase {
                case .awaitingHead: limit = head
                case .awaitingBody: limit = body
                case .answering: continue
                }
                guard now - entry.since > limit else { continue }
                // The connection's thread then reads an end of stream and closes it; its descriptor stays the
                // library's to close.
                shutdown(entry.socket, Int32(SHUT_RDWR))
                state.entries[key]?.isShutDown = true
                state.shutDownCount += 1
            }
        }
    }
}
