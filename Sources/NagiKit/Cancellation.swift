import Synchronization

/// A token that says whether the work it was given to should stop: checked between blocks by the loudness
/// pass and by `Soundtrack.write`, which then throw `SoundtrackError.cancelled` and leave nothing behind.
///
/// Made from any test (`Cancellation { flag }`: the command line's is its SIGINT / SIGTERM flag) or from a
/// `CancellationSource` an app cancels from another thread.
public struct Cancellation: Sendable {
    private let test: @Sendable () -> Bool

    /// A token that asks `isCancelled` each time it is checked (it must be cheap and async-signal-safe to read).
    public init(_ isCancelled: @escaping @Sendable () -> Bool) {
        test = isCancelled
    }

    /// A token that never cancels.
    public static let never = Cancellation { false }

    /// Whether the work should stop now.
    public var isCancelled: Bool { test() }
}

/// A cancellation flag an app sets from any thread; its `token` goes to the work.
public final class CancellationSource: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A source not yet cancelled.
    public init() {}

    /// Asks every holder of `token` to stop.
    public func cancel() {
        flag.store(true, ordering: .relaxed)
    }

    /// The token that reads this source.
    public var token: Cancellation {
        Cancellation { [flag = self] in flag.isCancelled }
    }

    /// Whether `cancel` was called.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
