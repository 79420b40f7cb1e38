import Locking
import Dispatch
import Synchronization

/// The renders running at once (`--jobs`) and the bounded queue before them: a render waits its turn while the
/// queue has room, and is turned away (503) past it, so a burst of requests cannot take every core and every byte.
///
/// The queue is fair: turns are given in the order they were asked for. A slot given back goes straight to the
/// longest waiting request (it is handed over, never released to be taken by whoever asks next).
package final class RenderSlots: Sendable {
    /// One request waiting for a turn.
    private final class Waiter: Sendable {
        let wakeUp = DispatchSemaphore(value: 0)
        /// Whether it was given a slot (false: turned away, the server stopping).
        let admitted = Atomic<Bool>(false)
    }

    private struct State {
        var running = 0
        /// Every turn given since the server started.
        var granted = 0
        /// The waiting requests, first come first.
        var waiting: [Waiter] = []
        var stopping = false
    }

    private let state = Locked(State())
    private let capacity: Int
    private let queueCapacity: Int

    /// `capacity` renders at once and `queueCapacity` waiting for one.
    package init(capacity: Int, queueCapacity: Int) {
        self.capacity = max(1, capacity)
        self.queueCapacity = max(0, queueCapacity)
    }

    /// Takes a slot, waiting for one in turn while the queue has room; false when it has none or the server is
    /// stopping.
    package func acquire() -> Bool {
        let queued = state.withLock { state -> Waiter?? in
            guard !state.stopping else { return .some(nil) }
            if state.running < capacity, state.waiting.isEmpty {
                state.running += 1
                state.granted += 1
                return .none
            }
            guard state.waiting.count < queueCapacity else { return .some(nil) }
            let waiter = Waiter()
            state.waiting.append(waiter)
            return .some(waiter)
        }
        switch queued {
        case .none: return true
        case .some(nil): return false
        case let .some(waiter?):
            waiter.wakeUp.wait()
            return waiter.admitted.load(ordering: .acquiring)
        }
    }

    /// Returns a slot taken by `acquire`: to the first waiting request, if any.
    package func release() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            state.granted += 1
            return state.waiting.removeFirst()
        }
        guard let next else { return }
        next.admitted.store(true, ordering: .releasing)
        next.wakeUp.signal()
    }

    /// How many renders run, and how many wait.
    package var counts: (running: Int, waiting: Int) {
        state.withLock { ($0.running, $0.waiting.count) }
    }

    /// How many turns were given since the server started: the renders it did (a file, an album), where an answer
    /// from what it knew already (HEAD, 304) took none.
    package var grantedCount: Int {
        state.withLock { $0.granted }
    }

    /// Turns every later request away and wakes the waiting ones, which are then turned away too.
    package func stop() {
        let waiters = state.withLock { state -> [Waiter] in
            state.stopping = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiters { waiter.wakeUp.signal() }
    }
}
