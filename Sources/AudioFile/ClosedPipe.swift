import Glibc

/// Tells a reader that went away from a real write failure on a pipe or socket.
///
/// SIGPIPE is ignored (so a write fails instead of killing nagi), and libsndfile's own descriptor I/O reports
/// such a failure only as text; the descriptor itself still says whether its reading end is gone.
public enum ClosedPipe {
    /// Whether `descriptor` is a pipe or socket whose reading end is closed: `poll` flags POLLERR (pipes) or
    /// POLLHUP (sockets) on the writing end. False for files, terminals and open pipes.
    public static func isClosed(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return false }
        return entry.revents & Int16(POLLERR | POLLHUP) != 0
    }
}
