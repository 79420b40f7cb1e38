import Locking

/// The renders running at once (`--jobs`) and the bounded queue before them: a render waits its turn while the
/// queue has room, and is turned away (503) past it, so a burst of requests cannot take every core and every byte.
package final class RenderSlots: @unchecked Sendable {
    private let state = ConditionLock()
    private let capacity: Int
    private let queueCapacity: Int
    private var running = 0
    private var waiting = 0
    private var stopping = false

    /// `capacity` renders at once and `queueCapacity` waiting for one.
    package init(capacity: Int, queueCapacity: Int) {
        self.capacity = max(1, capacity)
        self.queueCapacity = max(0, queueCapacity)
    }

    /// Takes a slot, waiting for one while the queue has room; false when it has none or the server is stopping.
    package func acquire() -> Bool {
        var queued = false
        let admitted = state.withLockWakingAll { () -> Bool in
            guard !stopping else { return false }
            if running < capacity {
                running += 1
                return true
            }
            guard waiting < queueCapacity else { return false }
            waiting += 1
            queued = true
            return true
        }
        guard admitted, queued else { return admitted }
        return state.waitUntil({ stopping || running < capacity }, then: { _ in
            waiting -= 1
            guard !stopping else { return false }
            running += 1
            return true
        })
    }

    /// Returns a slot taken by `acquire`.
    package func release() {
        state.withLockWakingAll { running -= 1 }
    }

    /// Turns every later request away and wakes the waiting ones, which are then turned away too.
    package func stop() {
        state.withLockWakingAll { stopping = true }
    }
}
