import NagiSystem
import Glibc

/// A standard stream of the process: its writes go straight to the descriptor, unbuffered, so that a progress
/// line and an error line never come out of order.
struct FileDescriptorOutput: CommandOutput {
    /// The descriptor: 1 or 2.
    let descriptor: Int32

    func write(_ bytes: [UInt8]) -> Int32 {
        if FileSystem.writeAll(descriptor, bytes) { return 0 }
        return errno != 0 ? errno : EIO
    }

    /// Whether the descriptor is a terminal.
    var isTerminal: Bool { isatty(descriptor) == 1 }
}
