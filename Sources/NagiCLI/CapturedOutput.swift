import Synchronization

/// A standard stream kept in memory: what a command run in process (`NagiCommandLine.run(_:context:)`) wrote
/// there, for its caller to read once it returns. Safe to write from a command's worker threads.
public final class CapturedOutput: CommandOutput {
    private let written = Mutex<[UInt8]>([])

    public init() {}

    public func write(_ bytes: [UInt8]) -> Int32 {
        written.withLock { $0.append(contentsOf: bytes) }
        return 0
    }

    /// Everything written so far.
    public var bytes: [UInt8] { written.withLock { $0 } }

    /// Everything written so far as text (invalid UTF-8 repaired).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
