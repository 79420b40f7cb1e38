import Breath
import NagiBase

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

    /// Whether the fault is a file the document names that does not exist or cannot be read (an included
    /// pattern): exit 66, no input, rather than 65.
    public var namesMissingFile: Bool

    public init(file: String, path: String, reason: String, namesMissingFile: Bool = false) {
        self.file = file
        self.path = path
        self.reason = reason
        self.namesMissingFile = namesMissingFile
    }

    /// Bad data, or a missing input when the fault is an included file that is missing.
    public var category: FaultCategory { namesMissingFile ? .missingInput : .badData }

    /// One line that names the file, the path and the fault.
    public var message: String { "\(file): \(path): \(reason)" }
}

extension BreathError {
    /// Bad content as one of the errors a command line reports.
    public init(_ content: ContentError) {
        self = content.namesMissingFile
            ? .missingInclude(file: content.file, path: content.path, reason: content.reason)
            : .invalidContent(file: content.file, path: content.path, reason: content.reason)
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
