import Locking

/// Wrong tokens counted per client address: past `allowedFailures` within a window, that address is refused (429)
/// until the window ends, so a token cannot be guessed at the network's pace. Addresses are forgotten when their
/// window ends, and at most `addressLimit` are remembered (the oldest window goes first).
final class FailedTokenThrottle: Sendable {
    private struct Window {
        var start: ContinuousClock.Instant
        var failures: Int
    }

    private let windows = Locked<[String: Window]>([:])
    /// Wrong tokens one address may send in a window before it is refused.
    let allowedFailures: Int
    /// The window's length.
    let window: Duration
    /// The most addresses remembered at once.
    let addressLimit: Int

    init(allowedFailures: Int = 10, window: Duration = .seconds(60), addressLimit: Int = 4096) {
        self.allowedFailures = allowedFailures
        self.window = window
        self.addressLimit = addressLimit
    }

    /// Counts a wrong token from `address`.
    func recordFailure(from address: String, now: ContinuousClock.Instant = .now) {
        windows.withLock { windows in
            if var current = windows[address], now - current.start < window {
                current.failures += 1
                windows[address] = current
                return
            }
            if windows.count >= addressLimit {
                windows = windows.filter { now - $0.value.start < window }
                if windows.count >= addressLimit, let oldest = windows.min(by: { $0.value.start < $1.value.start })?.key {
                    windows[oldest] = nil
                }
            }
            windows[address] = Window(start: now, failures: 1)
        }
    }

    /// The whole seconds `address` must wait before it is heard again; nil when it may ask now.
    func refusalSeconds(for address: String, now: ContinuousClock.Instant = .now) -> Int? {
        windows.withLock { windows in
            guard let current = windows[address] else { return nil }
            let elapsed = now - current.start
            guard elapsed < window else {
                windows[address] = nil
                return nil
            }
            guard current.failures >= allowedFailures else { return nil }
            let remaining = window - elapsed
            return max(1, Int(remaining.components.seconds) + (remaining.components.attoseconds > 0 ? 1 : 0))
        }
    }
}
