import Synchronization

/// A mutual-exclusion lock for state shared by render threads (export manifest, progress display).
final class Lock: Sendable {
    private let mutex = Mutex(())

    /// Runs `body` while holding the lock.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try mutex.withLock { _ in try body() }
    }
}
