import Locking
import Glibc
import NagiKit

/// The streamed bodies a server has started and whose producers have not yet returned: so that stopping can tell
/// every producer to stop and wait for them, with a socket or without one (a request answered in process).
package final class BodyProducers: Sendable {
    private struct State {
        /// The producers that have not returned, by number.
        var live: Set<Int> = []
        /// Their streams, once made (a producer may return before its stream is registered).
        var streams: [Int: HTTPBodyStream] = [:]
        var nextNumber = 0
        var isStopping = false
    }

    private let state = Locked(State())

    package init() {}

    /// A new streamed body counted here until its producer returns. `skipByteCount`, `spoolFolder` and `produce`: as
    /// `HTTPBodyStream`'s.
    /// - Throws: `HTTPServerError.system` when no pipe, spool or thread can be made.
    package func makeStream(
        skipping skipByteCount: Int = 0, spoolFolder: String? = nil, produce: @escaping @Sendable (_ descriptor: Int32, _ cancel: Cancellation) -> Bool
    ) throws(HTTPServerError) -> HTTPBodyStream {
        let number = state.withLock { state -> Int in
            defer { state.nextNumber += 1 }
            state.live.insert(state.nextNumber)
            return state.nextNumber
        }
        let stream: HTTPBodyStream
        do {
            stream = try HTTPBodyStream(skipping: skipByteCount, spoolFolder: spoolFolder, onEnd: { [weak self] in self?.ended(number) }, produce: produce)
        } catch {
            ended(number)
            throw error
        }
        let stopping = state.withLock { state -> Bool in
            if state.live.contains(number) { state.streams[number] = stream }
            return state.isStopping
        }
        if stopping { stream.cancel() }
        return stream
    }

    private func ended(_ number: Int) {
        state.withLock { state in
            state.live.remove(number)
            state.streams[number] = nil
        }
    }

    /// How many producers run now.
    package var runningCount: Int { state.withLock { $0.live.count } }

    /// Tells every running producer, and every later one, to stop.
    package func cancelAll() {
        let streams = state.withLock { state -> [HTTPBodyStream] in
            state.isStopping = true
            return Array(state.streams.values)
        }
        for stream in streams { stream.cancel() }
    }

    /// Waits until no producer runs, at most `seconds`; whether none does.
    @discardableResult
    package func waitUntilIdle(seconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while runningCount > 0 {
            guard ContinuousClock.now < deadline else { return false }
            usleep(5_000)
        }
        return true
    }
}
