import Glibc

/// A piece of work on a thread of its own from its start until `join()`, for a caller that goes on with other
/// work meanwhile and must know the thread has ended at a point of its choosing (before it forks, before it
/// reads what the work wrote). Joined when it goes, if not before. One owner.
final class SideThread {
    private var threads: [pthread_t]

    /// Starts `body` on a new thread, or runs it here when no thread can start (then `join` has nothing to wait for).
    init(_ body: @escaping @Sendable () -> Void) {
        threads = ParallelRunner.start(count: 1) { _ in body() }
        if threads.isEmpty { body() }
    }

    deinit { join() }

    /// Waits for the work to end (at once if it has, or was joined before).
    func join() {
        ParallelRunner.join(threads)
        threads = []
    }
}
