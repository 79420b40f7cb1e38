import NagiOptions

extension NagiError {
    /// The process exit code: the fault category's after sysexits, 128 + the signal for a run stopped by one, 1 for
    /// live playback the listener ended early.
    package var exitCode: Int32 {
        switch self {
        case let .interrupted(signal): 128 + signal
        case .stoppedEarly: 1
        default: category?.exitCode ?? 70
        }
    }
}

extension ArgumentError {
    /// Every argument error is a usage error: sysexits `EX_USAGE`.
    package var exitCode: Int32 { 64 }
}
