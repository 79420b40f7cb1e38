/// Why libebur128 could not measure.
public enum LoudnessError: Error, Equatable, Sendable {
    /// A rate outside 8 kHz ... 384 kHz or channels outside 1 ... 8.
    case unsupported(String)
    /// libebur128 refused: `call` is the function, `code` its error number.
    case ebur128(call: String, code: Int32)

    /// One line for a human.
    public var message: String {
        switch self {
        case .unsupported(let detail): return "cannot measure loudness: \(detail)"
        case .ebur128(let call, let code): return "\(call) failed (libebur128 error \(code))"
        }
    }
}
