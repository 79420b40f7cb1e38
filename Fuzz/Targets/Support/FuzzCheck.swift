import Breath
import NagiBase

/// Stops the process with `message` when an invariant fails, so libFuzzer records the input as a crash.
/// (`fatalError` keeps its message in -O builds, unlike `precondition`.)
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant failed: \(message())") }
}

/// Checks that a thrown error is one the caller may meet: a clean, printable BreathError of the expected kind.
func fuzzCheckClean(_ error: BreathError, allowed: (BreathError) -> Bool, _ context: String) {
    fuzzCheck(allowed(error), "\(context): unexpected error kind \(error)")
    fuzzCheck(!error.message.isEmpty, "\(context): empty message")
    fuzzCheck([FaultCategory.usage, .badData, .missingInput].contains(error.category), "\(context): fault \(error.category)")
}

/// Checks that bad content is reported cleanly: for the fuzzed file, with a message, as bad data.
func fuzzCheckClean(_ error: ContentError, file: String, _ context: String) {
    fuzzCheck(error.file == file, "\(context): the error names '\(error.file)', not '\(file)'")
    fuzzCheck(!error.reason.isEmpty && !error.message.isEmpty, "\(context): empty message")
    fuzzCheck(error.category == .badData, "\(context): fault \(error.category)")
}

/// The raw fuzz input as a byte array.
func fuzzBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}

/// A cheap deterministic hash of the input (FNV-1a), to pick sample rates and lengths per input.
func fuzzHash(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
}
