/// Why a resampler could not be made or run.
public enum ResamplingError: Error, Equatable, Sendable {
    /// A rate outside 1 Hz ... 1 MHz, or a channel count outside 1 ... 8.
    case unsupported(String)
    /// libsoxr refused: `call` is the function, `reason` its `soxr_error_t` text.
    case soxr(call: String, reason: String)

    /// One line for a human.
    public var message: String {
        switch self {
        case .unsupported(let detail): return "cannot resample: \(detail)"
        case .soxr(let call, let reason): return "\(call): \(reason)"
        }
    }
}
