import Breath

/// Reads course JSON: `{"name", "title", "description", "lessons": [{"title", "pattern", "minutes" | "cycles", "soundscape",
/// "cues", "count", "voice", "beat", "beatStyle", "loudness"}]}`.
public struct CourseDecoder: Sendable {
    /// The most lessons a course may hold.
    public static let lessonLimit = 999

    /// Resolves lesson patterns (preset names, inline strings, objects).
    public let sessions: SessionDecoder

    public init(catalog: PresetCatalog) {
        sessions = SessionDecoder(catalog: catalog)
    }

    /// Decodes a course document.
    public func decode(_ value: JSONValue, file: String) throws(ContentError) -> Course {
        let fields = try JSONFields(value, file: file, path: "$")
        try fields.rejectUnknownKeys(allowed: ["name", "title", "description", "lessons", "artist", "album", "genre", "cover"])
        guard let name = try fields.string("name") else { throw fields.error(nil, "a course needs \"name\": its short name, like \"beginner-21\"") }
        guard Self.isSafeName(name) else {
            throw fields.error("name", "\"\(name)\" is not a usable course name; use letters, digits, '-' and '_' (1 to 64 characters)")
        }
        guard let title = try fields.displayText("title"), !title.isEmpty else { throw fields.error(nil, "a course needs \"title\"") }
        let description = try fields.displayText("description")
        guard let elements = try fields.array("lessons") else { throw fields.error(nil, "a course needs \"lessons\": a list of lessons") }
        guard !elements.isEmpty else { throw fields.error("lessons", "expected at least one lesson") }
        guard elements.count <= Self.lessonLimit else { throw fields.error("lessons", "a course holds at most \(Self.lessonLimit) lessons") }
        var lessons: [Course.Lesson] = []
        for (element, path) in elements {
            lessons.append(try decodeLesson(element, file: file, path: path))
        }
        var albumTexts: [String: String] = [:]
        for key in ["artist", "album", "genre", "cover"] {
            guard let text = try fields.displayText(key) else { continue }
            guard !text.isEmpty else { throw fields.error(key, "expected one line of visible text, found an empty string") }
            albumTexts[key] = text
        }
        return Course(name: name, title: title, description: description, lessons: lessons, artist: albumTexts["artist"], album: albumTexts["album"], genre: albumTexts["genre"], cover: albumTexts["cover"])
    }

    /// Decodes the course preset named `name` in the catalog, or throws the "no such course" error.
    public func course(named name: String) throws(BreathError) -> Course {
        guard let entry = sessions.catalog.entry(named: name, in: .courses) else {
            throw sessions.catalog.notFound(name, in: .courses)
        }
        return try BreathError.reportingContent { () throws(ContentError) in
            try decode(try entry.parsed(), file: entry.fileDescription)
        }
    }

    func decodeLesson(_ value: JSONValue, file: String, path: String) throws(ContentError) -> Course.Lesson {
        let fields = try JSONFields(value, file: file, path: path)
        try fields.rejectUnknownKeys(allowed: ["title", "pattern", "minutes", "cycles", "soundscape", "cues", "count", "voice", "bed", "bedLevel"] + Self.soundKeys)
        guard let title = try fields.displayText("title"), !title.isEmpty else { throw fields.error(nil, "a lesson needs \"title\"") }
        guard let patternValue = fields.value("pattern") else { throw fields.error(nil, "a lesson needs \"pattern\": a preset name, an inline pattern, or a pattern or session object") }
        let length = try sessions.decodeLength(fields)
        let resolved = try sessions.resolveReference(patternValue, file: file, path: fields.path(of: "pattern"), depth: 0)
        var session = try SessionDecoder.breathing(resolved, file: file, path: fields.path(of: "pattern")).session
        if let length {
            do {
                session = try session.withLength(length)
            } catch {
                throw fields.error(nil, error.message)
            }
        }
        do {
            _ = try SessionExpander.totalMicroseconds(of: session.stages)
        } catch {
            throw fields.error(nil, error.message)
        }
        if session.title == nil { session.title = title }
        let label: String
        switch patternValue {
        case let .string(text): label = text
        default: label = resolved.title ?? "custom"
        }
        let soundscape = try fields.string("soundscape")
        if let soundscape, soundscape.isEmpty { throw fields.error("soundscape", "expected a soundscape name") }
        let bed = try fields.string("bed")
        if let bed, bed.isEmpty { throw fields.error("bed", "expected the path of an audio file") }
        let bedLevel = try fields.number("bedLevel", in: SoundSettingRanges.bedLevelDecibels)
        let cues = try Self.choice("cues", in: fields, among: CueMode.allCases.map(\.rawValue))
        let count = try Self.choice("count", in: fields, among: CountMode.allCases.map(\.rawValue))
        let voice = try Self.choice("voice", in: fields, among: ["slt", "rms", "awb", "kal16"])
        var lesson = Course.Lesson(title: title, session: session, patternLabel: label, soundscape: soundscape, cues: cues, count: count, voice: voice, bed: bed, bedLevelDecibels: bedLevel)
        try decodeSound(fields, into: &lesson)
        return lesson
    }

    /// A lesson's guidance field, one of the command line's own values for the same option.
    private static func choice(_ key: String, in fields: JSONFields, among allowed: [String]) throws(ContentError) -> String? {
        guard let text = try fields.string(key) else { return nil }
        guard allowed.contains(text) else {
            throw fields.error(key, "expected one of " + allowed.joined(separator: ", ") + ", not \"\(text)\"")
        }
        return text
    }

    /// Whether a course name is safe as a file name part: ASCII letters, digits, '-' and '_', 1 to 64 long.
    public static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
    }
}
