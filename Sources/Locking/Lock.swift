import Glibc

/// A mutual-exclusion lock for state its owner keeps itself, shared by threads (flite, the runner's progress).
///
/// A pthread mutex rather than Synchronization's `Mutex`: ThreadSanitizer intercepts pthread mutexes, but
/// not the futex `Mutex` uses on Linux, so it reported locked updates as races (two export threads' manifest
/// updates; two speakers' use of flite's cache).
public final class Lock: @unchecked Sendable {
    /// Heap storage: a pthread mutex must not move once initialised.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` while holding the lock.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
