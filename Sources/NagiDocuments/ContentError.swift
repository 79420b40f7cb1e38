import Breath

/// Bad content in a document: the file, the JSON path at fault (`$.stages[0].cycles`) and what would be
/// right. What the JSON parser, `JSONFields` and every decoder (patterns, sessions, courses, progress
/// records, soundscapes) throw.
public struct ContentError: Error, Equatable, Sendable {
    /// How messages name the file: a path, or `presets:patterns/box.json` for a built-in.
    public var file: String
    /// The JSON path at fault (`$` for the whole document).
    public var path: String
    /// What is wrong and what would be right.
    public var reason: String

    /// The exit code after sysexits: 65, bad data.
    public var exitCode: Int32 { 65 }

    /// One line that names the file, the path and the fault.
    public var message: String { "\(file): \(path): \(reason)" }
}

extension BreathError {
    /// Bad content as one of the errors a command line reports.
    public init(_ content: ContentError) {
        self = .invalidContent(file: content.file, path: content.path, reason: content.reason)
    }

    /// Runs `body`, reporting bad content as `.invalidContent`: for callers that resolve names, files and
    /// inline patterns as well as documents, and throw every fault as a BreathError.
    public static func reportingContent<Value>(_ body: () throws(ContentError) -> Value) throws(BreathError) -> Value {
        do {
            return try body()
        } catch {
            throw BreathError(error)
        }
    }
}
