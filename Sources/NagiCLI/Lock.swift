import Glibc

/// A mutual-exclusion lock for state shared by render threads (export manifest, progress display).
///
/// A pthread mutex rather than Synchronization's `Mutex`: ThreadSanitizer intercepts pthread mutexes, but
/// not the futex `Mutex` uses on Linux, so it reported two export threads' locked manifest updates as a race.
final class Lock: @unchecked Sendable {
    /// Heap storage: a pthread mutex must not move once initialised.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
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
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
