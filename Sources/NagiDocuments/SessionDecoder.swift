import NagiBase
import Breath

/// Turns pattern and session JSON (and references to presets or inline strings) into sessions.
///
/// A pattern file has `phases`; a session file has `stages`. Both may carry `title`, `description`,
/// `easing` and a default length (`minutes` or `cycles`).
public struct SessionDecoder: Sendable {
    /// How deep presets may refer to presets (a preset naming itself is caught here).
    static let referenceDepthLimit = 8
    /// How deep stages may nest.
    static let stageDepthLimit = 16

    /// The catalog that preset names resolve in.
    public let catalog: PresetCatalog
    /// Reads a JSON file that a `"pattern"` inside a file names by path (`"./my.json"`, resolved
    /// relative to the including file); `nil` refuses such paths.
    public let loadFile: (@Sendable (String) throws(BreathError) -> (text: [UInt8], file: String))?

    public init(catalog: PresetCatalog, loadFile: (@Sendable (String) throws(BreathError) -> (text: [UInt8], file: String))? = nil) {
        self.catalog = catalog
        self.loadFile = loadFile
    }

    /// What a pattern reference stands for: one cycle pattern, or a whole session of stages.
    public enum Resolved: Sendable {
        case pattern(Pattern)
        case session(Session)

        /// As a session of its own, at its default length.
        public var session: Session {
            switch self {
            case let .pattern(pattern): Session(pattern: pattern)
            case let .session(session): session
            }
        }

        /// The title it carries, if any.
        public var title: String? {
            switch self {
            case let .pattern(pattern): pattern.title
            case let .session(session): session.title
            }
        }
    }

    // MARK: - Top level

    /// Decodes a whole pattern or session document.
    public func decodeDocument(_ value: JSONValue, file: String) throws(ContentError) -> Resolved {
        try decodeDocument(value, file: file, path: "$", depth: 0, extraKeys: [])
    }

    /// Decodes a pattern or session object at `path`; `extraKeys` are keys the caller reads itself.
    func decodeDocument(_ value: JSONValue, file: String, path: String, depth: Int, extraKeys: [String]) throws(ContentError) -> Resolved {
        let fields = try JSONFields(value, file: file, path: path)
        let common = ["title", "description", "easing", "minutes", "cycles"]
        let title = try fields.displayText("title")
        let description = try fields.displayText("description")
        let easing = try decodeEasing(fields)
        let length = try decodeLength(fields)
        if fields.has("bpm") {
            guard !fields.has("phases"), !fields.has("stages") else {
                throw fields.error("bpm", "a document has one of \"phases\", \"stages\" or \"bpm\", not two")
            }
            try fields.rejectUnknownKeys(allowed: common + ["bpm", "ratio"] + extraKeys)
            var pattern = try decodePace(fields).pattern
            pattern.title = title ?? pattern.title
            pattern.description = description
            pattern.easing = easing
            pattern.defaultLength = length
            return .pattern(pattern)
        }
        switch (fields.has("phases"), fields.has("stages")) {
        case (true, false):
            try fields.rejectUnknownKeys(allowed: common + ["phases"] + extraKeys)
            let phases = try decodePhases(fields)
            return .pattern(Pattern(title: title, description: description, easing: easing, phases: phases, defaultLength: length))
        case (false, true):
            try fields.rejectUnknownKeys(allowed: common + ["stages"] + extraKeys)
            let stages = try decodeStages(fields, key: "stages", depth: depth)
            var session = Session(title: title, description: description, easing: easing ?? Session.defaultEasing, stages: stages)
            if let length {
                session = try withLimitsAsContent(fields, nil) { () throws(BreathError) in try session.withLength(length) }
            }
            _ = try withLimitsAsContent(fields, nil) { () throws(BreathError) in try SessionExpander.totalMicroseconds(of: session.stages) }
            return .session(session)
        case (true, true):
            throw fields.error("stages", "a document has either \"phases\" (one cycle) or \"stages\" (a session), not both")
        case (false, false):
            throw fields.error(nil, "expected \"phases\" (a list of phases), \"stages\" (a list of stages) or \"bpm\" (breaths a minute)")
        }
    }

    /// Runs `body`, turning a limit error into bad content at the object's path.
    private func withLimitsAsContent<T>(_ fields: JSONFields, _ key: String?, _ body: () throws(BreathError) -> T) throws(ContentError) -> T {
        do {
            return try body()
        } catch {
            throw fields.error(key, error.message)
        }
    }

    // MARK: - References

    /// Resolves a reference written on the command line: a preset name, an inline string such as `4-7-8`, or
    /// (via `loadFile`) a path to a JSON file. Returns what it stands for and a short name for file names.
    public func resolveArgument(_ reference: String, loadFile: (String) throws(BreathError) -> (text: [UInt8], file: String)) throws(BreathError) -> (resolved: Resolved, name: String) {
        if PresetCatalog.isFilePath(reference) {
            let (bytes, file) = try loadFile(reference)
            let resolved = try BreathError.reportingContent { () throws(ContentError) in
                try Self.breathing(try decodeDocument(try JSONParser.parse(bytes, file: file), file: file), file: file)
            }
            return (resolved, PresetCatalog.name(ofFile: reference))
        }
        if let entry = catalog.entry(named: reference, in: .patterns) {
            return (try BreathError.reportingContent { () throws(ContentError) in try Self.breathing(try resolvePreset(entry, depth: 0), file: entry.fileDescription) }, reference)
        }
        if InlinePattern.looksInline(reference) || reference.first.map({ $0.isNumber }) == true {
            return (.pattern(try InlinePattern.parse(reference)), reference)
        }
        throw catalog.notFound(reference, in: .patterns)
    }

    /// `resolved`, played on its own (a document, a lesson), when it breathes in and out somewhere; else an error
    /// at `path`, by default the document's "phases" or "stages" (a hold alone is a stage of a session, as Wim
    /// Hof's retention is).
    static func breathing(_ resolved: Resolved, file: String, path: String? = nil) throws(ContentError) -> Resolved {
        guard let missing = resolved.session.missingBreath else { return resolved }
        let (what, key) = if case .pattern = resolved { ("pattern", "phases") } else { ("session", "stages") }
        throw ContentError(file: file, path: path ?? "$.\(key)", reason: "the \(what) never breathes \(missing == .inhale ? "in" : "out"); it needs an \(missing.rawValue) longer than 0 s (a hold alone belongs in a session's stages)")
    }

    /// Decodes a preset entry of the pattern catalog.
    func resolvePreset(_ entry: PresetCatalog.Entry, depth: Int) throws(ContentError) -> Resolved {
        guard depth < Self.referenceDepthLimit else {
            throw ContentError(file: entry.fileDescription, path: "$", reason: "presets refer to each other more than \(Self.referenceDepthLimit) deep (does a preset name itself?)")
        }
        let value = try entry.parsed()
        return try decodeDocument(value, file: entry.fileDescription, path: "$", depth: depth, extraKeys: [])
    }

    /// `reference` as seen from the folder of the file at `including`: absolute paths stay, relative
    /// ones join that folder ("./my.json" in "/a/s.json" → "/a/./my.json").
    static func path(_ reference: String, relativeToFileAt including: String) -> String {
        // A file named without a folder ("s.json") is read from the working folder: its references stay as written.
        guard including.contains("/") else { return reference }
        return withoutDotComponents(FilePath(reference).resolved(against: FilePath(including).parent).string)
    }

    /// `path` without its `.` components past the first, so that a chain of includes names a file as it was
    /// named (`./a.json`, not `././././a.json`).
    static func withoutDotComponents(_ path: String) -> String {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        var kept = components.enumerated().filter { index, component in index == 0 || component != "." }.map(\.element)
        if kept.count > 1, kept[0] == ".", kept[1] == "." { kept.removeFirst() }
        return kept.joined(separator: "/")
    }

    /// Resolves a `"pattern"` member inside JSON: a preset name, an inline string, or an object.
    public func resolveReference(_ value: JSONValue, file: String, path: String, depth: Int) throws(ContentError) -> Resolved {
        switch value {
        case let .string(text):
            if let entry = catalog.entry(named: text, in: .patterns) {
                return try resolvePreset(entry, depth: depth + 1)
            }
            if let loadFile, PresetCatalog.isFilePath(text) {
                guard depth < Self.referenceDepthLimit else {
                    throw ContentError(file: file, path: path, reason: "files refer to each other more than \(Self.referenceDepthLimit) deep (does a file include itself?)")
                }
                let included = Self.path(text, relativeToFileAt: file)
                let bytes: [UInt8]
                let includedFile: String
                do {
                    (bytes, includedFile) = try loadFile(included)
                } catch {
                    // A missing or unreadable include is a fault of the including document.
                    throw ContentError(file: file, path: path, reason: error.message, namesMissingFile: error.category == .missingInput)
                }
                return try decodeDocument(try JSONParser.parse(bytes, file: includedFile), file: includedFile, path: "$", depth: depth + 1, extraKeys: [])
            }
            if InlinePattern.looksInline(text) || text.first.map({ $0.isNumber }) == true {
                do {
                    return .pattern(try InlinePattern.parse(text))
                } catch {
                    // The inline pattern's own message: "invalid pattern '4-x': ...".
                    throw ContentError(file: file, path: path, reason: error.message, namesMissingFile: error.category == .missingInput)
                }
            }
            let suggestions = NearestNames.find(text, among: catalog.names(in: .patterns), maxDistance: 3)
            let hint = suggestions.first.map { " (did you mean '\($0)'?)" } ?? ""
            throw ContentError(file: file, path: path, reason: "no pattern named '\(text)'\(hint); use a preset name, an inline pattern like \"4-7-8\", or an object with \"phases\"")
        case .object:
            return try decodeDocument(value, file: file, path: path, depth: depth + 1, extraKeys: [])
        default:
            throw ContentError(file: file, path: path, reason: "expected a preset name, an inline pattern like \"4-7-8\", or an object with \"phases\", found \(value.typeDescription)")
        }
    }

    // MARK: - Parts

    /// `"easing"`: "cosine", "linear", "bezier" (`Easing.easeInOutBezier`) or four Bézier numbers in [0, 1].
    func decodeEasing(_ fields: JSONFields) throws(ContentError) -> Easing? {
        guard let value = fields.value("easing") else { return nil }
        switch value {
        case .string("cosine"): return .cosine
        case .string("linear"): return .linear
        case .string("bezier"): return .easeInOutBezier
        case .array:
            guard let numbers = try fields.numbers("easing", in: 0...1, count: 4) else { return nil }
            return .cubicBezier(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3])
        default:
            throw fields.error("easing", "expected \"cosine\", \"linear\", \"bezier\" or four numbers [x1, y1, x2, y2] in 0...1")
        }
    }

    /// `"minutes"` or `"cycles"` (not both).
    func decodeLength(_ fields: JSONFields) throws(ContentError) -> SessionLength? {
        if fields.has("minutes") && fields.has("cycles") {
            throw fields.error("cycles", "give either \"minutes\" or \"cycles\", not both")
        }
        if let cycles = try fields.integer("cycles", in: 1...SessionExpander.phaseLimit) {
            return .cycles(cycles)
        }
        if let microseconds = try fields.microseconds("minutes", unitMicroseconds: 60 * Microseconds.perSecond, unitName: "minutes") {
            guard microseconds > 0 else { throw fields.error("minutes", "expected more than 0 minutes") }
            return .duration(microseconds: microseconds)
        }
        return nil
    }

    /// `"bpm"` (a number, 1 to 30) and `"ratio"` (`"2:3"` or `"4:7:8:1"`, default 1:1): one breath at that pace.
    func decodePace(_ fields: JSONFields) throws(ContentError) -> BreathPace {
        var ratio = BreathRatio.even
        if let ratioText = try fields.string("ratio") {
            do {
                ratio = try BreathRatio.parse(ratioText)
            } catch {
                throw fields.error("ratio", "\"\(ratioText)\" is not a ratio; expected \(error.expected)")
            }
        }
        guard case let .number(_, text)? = fields.value("bpm") else {
            throw fields.error("bpm", "expected \(BreathPace.expectedRate)")
        }
        do {
            return try BreathPace(breathsPerMinute: text, ratio: ratio)
        } catch {
            throw fields.error("bpm", "\(text) is not usable; expected \(error.expected)")
        }
    }

    /// A member holding words for the guide (`"say"`, `"label"`, `"announce"`), checked by `SpokenText`.
    func decodeSpokenText(_ fields: JSONFields, _ key: String) throws(ContentError) -> String? {
        guard let text = try fields.string(key) else { return nil }
        if let problem = SpokenText.problem(in: text) { throw fields.error(key, problem) }
        return text
    }

    /// `"phases"`: an ordered, non-empty list of `{"kind", "seconds", "to"?, "say"?, "open"?}`; phases of 0 s are skipped.
    func decodePhases(_ fields: JSONFields) throws(ContentError) -> [Phase] {
        guard let elements = try fields.array("phases") else { return [] }
        guard !elements.isEmpty else { throw fields.error("phases", "expected at least one phase") }
        var phases: [Phase] = []
        for (value, path) in elements {
            let phase = try JSONFields(value, file: fields.file, path: path)
            try phase.rejectUnknownKeys(allowed: ["kind", "seconds", "to", "say", "open"])
            guard let kindName = try phase.string("kind") else {
                throw phase.error(nil, "a phase needs \"kind\": one of inhale, holdIn, exhale, holdOut")
            }
            guard let kind = PhaseKind(rawValue: kindName) else {
                let hint = NearestNames.find(kindName, among: PhaseKind.allCases.map(\.rawValue), maxDistance: 3).first.map { " (did you mean \"\($0)\"?)" } ?? ""
                throw phase.error("kind", "unknown kind \"\(kindName)\"\(hint); expected inhale, holdIn, exhale or holdOut")
            }
            guard let microseconds = try phase.microseconds("seconds", unitMicroseconds: Microseconds.perSecond, unitName: "seconds") else {
                throw phase.error(nil, "a phase needs \"seconds\": its length")
            }
            let target = try phase.number("to", in: 0...1)
            if target != nil && kind.isHold {
                throw phase.error("to", "a hold keeps the level; only inhale and exhale take \"to\"")
            }
            let words = try decodeSpokenText(phase, "say")
            let isOpen = try phase.bool("open") ?? false
            if isOpen && !kind.isHold {
                throw phase.error("open", "only a hold (holdIn or holdOut) can be open-ended")
            }
            if microseconds > 0 {
                phases.append(Phase(kind: kind, durationMicroseconds: microseconds, targetLevel: target, spokenWords: words, isOpen: isOpen))
            }
        }
        guard !phases.isEmpty else { throw fields.error("phases", "every phase is 0 s long; a pattern needs at least one longer phase") }
        return phases
    }

    /// `"stages"`: a non-empty list of pattern, ramp and repeat stages.
    func decodeStages(_ fields: JSONFields, key: String, depth: Int) throws(ContentError) -> [Stage] {
        guard depth < Self.stageDepthLimit else { throw fields.error(key, "stages nest deeper than \(Self.stageDepthLimit) levels") }
        guard let elements = try fields.array(key) else { return [] }
        guard !elements.isEmpty else { throw fields.error(key, "expected at least one stage") }
        var stages: [Stage] = []
        for (value, path) in elements {
            stages.append(try decodeStage(value, file: fields.file, path: path, depth: depth))
        }
        return stages
    }

    /// One stage: `{"pattern", length}`, `{"ramp": {"from", "to"}, length}` or `{"repeat": K, "stages": [...]}`,
    /// each optionally with `"label"` (and `"announce"`, the words spoken there) marking its start.
    func decodeStage(_ value: JSONValue, file: String, path: String, depth: Int) throws(ContentError) -> Stage {
        let fields = try JSONFields(value, file: file, path: path)
        let label = try decodeSpokenText(fields, "label")
        let announcement = try decodeSpokenText(fields, "announce")
        let stage = try decodeUnlabelledStage(fields, file: file, depth: depth)
        guard let label else {
            if announcement != nil { throw fields.error("announce", "an announcement needs a \"label\" for the stage too") }
            return stage
        }
        return .labelled(StageLabel(label: label, announcement: announcement), stage)
    }

    /// The stage itself, without its label.
    private func decodeUnlabelledStage(_ fields: JSONFields, file: String, depth: Int) throws(ContentError) -> Stage {
        let length = try decodeLength(fields)
        if fields.has("repeat") {
            try fields.rejectUnknownKeys(allowed: ["repeat", "stages", "title", "label", "announce"])
            guard let count = try fields.integer("repeat", in: 1...SessionExpander.phaseLimit) else { throw fields.error("repeat", "expected a count") }
            guard fields.has("stages") else { throw fields.error(nil, "a repeat needs \"stages\": the stages to repeat") }
            let stages = try decodeStages(fields, key: "stages", depth: depth + 1)
            let stage = Stage.group(count: count, stages: stages)
            _ = try withLimitsAsContent(fields, "repeat") { () throws(BreathError) in try SessionExpander.totalMicroseconds(of: [stage]) }
            return stage
        }
        if let ramp = try fields.object("ramp") {
            try fields.rejectUnknownKeys(allowed: ["ramp", "minutes", "cycles", "title", "label", "announce"])
            try ramp.rejectUnknownKeys(allowed: ["from", "to"])
            guard let fromValue = ramp.value("from"), let toValue = ramp.value("to") else {
                throw ramp.error(nil, "a ramp needs \"from\" and \"to\" patterns")
            }
            guard case let .pattern(from) = try resolveReference(fromValue, file: file, path: ramp.path(of: "from"), depth: depth) else {
                throw ramp.error("from", "a ramp moves between two single patterns, not sessions")
            }
            guard case let .pattern(to) = try resolveReference(toValue, file: file, path: ramp.path(of: "to"), depth: depth) else {
                throw ramp.error("to", "a ramp moves between two single patterns, not sessions")
            }
            guard let length else { throw fields.error(nil, "a ramp needs \"minutes\" or \"cycles\"") }
            _ = try withLimitsAsContent(ramp, nil) { () throws(BreathError) in try RampLanes(from: from, to: to) }
            let stage = Stage.ramp(from: from, to: to, length)
            _ = try withLimitsAsContent(fields, nil) { () throws(BreathError) in try SessionExpander.totalMicroseconds(of: [stage]) }
            return stage
        }
        if let patternValue = fields.value("pattern") {
            try fields.rejectUnknownKeys(allowed: ["pattern", "minutes", "cycles", "title", "label", "announce"])
            let stage: Stage
            switch try resolveReference(patternValue, file: file, path: fields.path(of: "pattern"), depth: depth) {
            case let .pattern(pattern):
                guard let stageLength = length ?? pattern.defaultLength else {
                    throw fields.error(nil, "a stage needs \"cycles\" or \"minutes\"")
                }
                stage = .pattern(pattern, stageLength)
            case let .session(session):
                let resized = try withLimitsAsContent(fields, nil) { () throws(BreathError) in
                    try length.map { (length: SessionLength) throws(BreathError) in try session.withLength(length) } ?? session
                }
                stage = .group(count: 1, stages: resized.stages)
            }
            _ = try withLimitsAsContent(fields, nil) { () throws(BreathError) in try SessionExpander.totalMicroseconds(of: [stage]) }
            return stage
        }
        throw fields.error(nil, "a stage needs \"pattern\", \"ramp\" or \"repeat\"")
    }
}
