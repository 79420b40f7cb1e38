/// Where one of a command's standard streams goes: a file descriptor for the `nagi` process, a buffer for a run
/// in process (`CapturedOutput`).
public protocol CommandOutput: Sendable {
    /// Writes all of `bytes`; returns 0, or the errno of the write that failed.
    func write(_ bytes: [UInt8]) -> Int32
}
