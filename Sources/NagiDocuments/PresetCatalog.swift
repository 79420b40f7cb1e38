import NagiBase
import Breath

/// Every preset nagi knows, built-in and the user's own, by category and name.
public struct PresetCatalog: Sendable {
    /// The kinds of preset, named after their folders.
    public enum Category: String, CaseIterable, Sendable {
        case patterns
        case soundscapes
        case courses

        /// The singular word for messages ("no pattern named ...").
        public var singular: String {
            switch self {
            case .patterns: "pattern"
            case .soundscapes: "soundscape"
            case .courses: "course"
            }
        }
    }

    /// Where a preset came from.
    public enum Origin: Sendable, Equatable {
        case builtin
        /// A file in the user's preset folder, with its path.
        case user(path: String)
    }

    /// One preset file.
    public struct Entry: Sendable {
        public var category: Category
        /// The file name without `.json` ("box").
        public var name: String
        public var text: String
        public var origin: Origin
        /// Why the file's text cannot be used at all (a file over the size limit), reported wherever the
        /// preset is used instead of what parsing a cut-off text would say.
        public var unusableReason: String?

        public init(category: Category, name: String, text: String, origin: Origin, unusableReason: String? = nil) {
            self.category = category
            self.name = name
            self.text = text
            self.origin = origin
            self.unusableReason = unusableReason
        }

        /// The file's JSON.
        /// - Throws: `ContentError` at `$` with `unusableReason`, or the parser's.
        public func parsed() throws(ContentError) -> JSONValue {
            if let unusableReason { throw ContentError(file: fileDescription, path: "$", reason: unusableReason) }
            return try JSONParser.parse(text, file: fileDescription)
        }

        /// How messages name the file: its path for user files, `presets:patterns/box.json` for built-ins.
        public var fileDescription: String {
            switch origin {
            case .builtin: "presets:\(category.rawValue)/\(name).json"
            case let .user(path): path
            }
        }
    }

    private var entries: [Category: [String: Entry]] = [:]

    /// A catalog of the built-in table (`"patterns/box.json": text`) overlaid by the user's entries,
    /// which win on equal names.
    public init(builtinFiles: [String: String], userEntries: [Entry] = []) {
        for (path, text) in builtinFiles {
            let filePath = FilePath(path), fileName = filePath.lastComponent
            guard let category = Category(rawValue: filePath.parent.string), fileName.hasSuffix(".json") else { continue }
            let name = String(fileName.dropLast(5))
            entries[category, default: [:]][name] = Entry(category: category, name: name, text: text, origin: .builtin)
        }
        for entry in userEntries {
            entries[entry.category, default: [:]][entry.name] = entry
        }
    }

    /// The preset named `name` in `category`, if any.
    public func entry(named name: String, in category: Category) -> Entry? {
        entries[category]?[name]
    }

    /// All names in `category`, sorted.
    public func names(in category: Category) -> [String] {
        (entries[category]?.keys).map { $0.sorted() } ?? []
    }

    /// All entries in `category`, sorted by name.
    public func entries(in category: Category) -> [Entry] {
        names(in: category).compactMap { entries[category]?[$0] }
    }

    /// Whether a reference names a JSON file rather than a preset: it ends in `.json` or holds a `/`.
    public static func isFilePath(_ reference: String) -> Bool {
        reference.hasSuffix(".json") || reference.contains("/")
    }

    /// The name a file path goes by: its last component without `.json` ("./my/box.json" → "box").
    public static func name(ofFile path: String) -> String {
        let baseName = FilePath(path).lastComponent
        return baseName.hasSuffix(".json") ? String(baseName.dropLast(5)) : baseName
    }

    /// The "no such preset" error with the nearest names.
    public func notFound(_ name: String, in category: Category) -> BreathError {
        .notFound(name: name, kind: category.singular, suggestions: Array(NearestNames.find(name, among: names(in: category), maxDistance: 3).prefix(3)))
    }
}

extension PresetCatalog.Entry {
    /// The preset's description (or title), on one line; a broken file says so instead of failing a listing.
    public var summary: String {
        do {
            let value = try parsed()
            guard case let .object(members, _) = value else { return "(invalid: not a JSON object)" }
            for key in ["description", "title"] {
                if case let .string(text)? = members[key] {
                    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
                }
            }
            return ""
        } catch {
            return "(invalid: \(error.message))"
        }
    }
}
