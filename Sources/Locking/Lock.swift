/// A mutual-exclusion lock for state shared by threads (progress display, flite).
///
/// A pthread mutex rather than Synchronization's `Mutex`: ThreadSanitizer intercepts pthread mutexes, but not the
/// futex `Mutex` uses on Linux, so it reported locked updates as races (two export threads' manifest updates; two
/// speakers' use of flite's cache). A `Locked` value of nothing: the lock alone, for state its owner keeps itself.
public final class Lock: Sendable {
    private let locked = Locked(())

    public init() {}

    /// Runs `body` while holding the lock.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try locked.withLock { _ in try body() }
    }
}
