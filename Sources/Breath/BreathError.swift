import NagiBase

/// What went wrong while reading or expanding a breathing pattern, session, course or soundscape.
public enum BreathError: Error, Equatable, Sendable {
    /// A malformed inline pattern such as `4-x-8`.
    case inlinePattern(text: String, reason: String)
    /// Bad content in a JSON file: the file, the JSON path at fault (`$.stages[0].cycles`) and what would be right.
    case invalidContent(file: String, path: String, reason: String)
    /// A file that a JSON document names (an included pattern) does not exist or cannot be read: the
    /// including file, the JSON path and why.
    case missingInclude(file: String, path: String, reason: String)
    /// A preset name or file that does not exist, with the nearest names.
    case notFound(name: String, kind: String, suggestions: [String])
    /// A file named by path that does not exist or cannot be read.
    case fileNotFound(path: String, reason: String)
    /// Reading a file failed part way in the system (an I/O error).
    case readFailed(path: String, reason: String)
    /// A session beyond what nagi schedules (too long, too many phases), with the limit.
    case limitExceeded(reason: String)

    /// What kind of fault this is: a bad request, bad data, or something missing.
    public var category: FaultCategory {
        switch self {
        case .inlinePattern, .limitExceeded: .usage
        case .invalidContent: .badData
        case .notFound, .fileNotFound, .missingInclude: .missingInput
        case .readFailed: .inputOutput
        }
    }

    /// One line that names the fault and says what would be right.
    public var message: String {
        switch self {
        case let .inlinePattern(text, reason):
            return "invalid pattern '\(text)': \(reason)"
        case let .invalidContent(file, path, reason), let .missingInclude(file, path, reason):
            return "\(file): \(path): \(reason)"
        case let .notFound(name, kind, suggestions):
            var line = "no \(kind) named '\(name)'"
            if !suggestions.isEmpty {
                line += " (did you mean \(suggestions.map { "'\($0)'" }.joined(separator: " or "))?)"
            }
            return line
        case let .fileNotFound(path, reason), let .readFailed(path, reason):
            return "cannot read '\(path)': \(reason)"
        case let .limitExceeded(reason):
            return reason
        }
    }
}
