import Breath

/// A learner's progress through one course: which lessons are done and when.
public struct CourseProgress: Sendable, Equatable, Encodable {
    /// One completed lesson.
    public struct Completion: Sendable, Equatable, Encodable {
        /// The lesson's index in the course, from 0.
        public var lessonIndex: Int
        /// The lesson's title when it was completed (a course file may change later).
        public var title: String
        /// When it was completed, as an ISO 8601 date-time in UTC ("2026-11-29T07:30:00Z").
        public var completedAt: String
        /// When the lesson's sound started to be heard, ISO 8601 with milliseconds and the zone
        /// ("2026-11-29T08:30:01.250+01:00"); nil in records written before starts were kept.
        public var startedAt: String?
        /// Each open hold's length in milliseconds, in order (`"retentionMs"`; empty when the lesson had none).
        public var retentionMilliseconds: [Int64]
        /// Stages skipped on or back with n and b (`"skips"`; 0 when none): the lesson was not played as written.
        public var skipCount: Int

        public init(lessonIndex: Int, title: String, completedAt: String, startedAt: String? = nil, retentionMilliseconds: [Int64] = [], skipCount: Int = 0) {
            self.lessonIndex = lessonIndex
            self.title = title
            self.completedAt = completedAt
            self.startedAt = startedAt
            self.retentionMilliseconds = retentionMilliseconds
            self.skipCount = skipCount
        }

        /// The keys of a completion in a record file; `decode` reads the same.
        private enum CodingKeys: String, CodingKey {
            case lesson, title, completedAt, startedAt, retentionMs, skips
        }

        /// The lesson counted from 1; a start, holds and skips only when there are any, as records written before
        /// they were kept have none.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(lessonIndex + 1, forKey: .lesson)
            try container.encode(title, forKey: .title)
            try container.encode(completedAt, forKey: .completedAt)
            try container.encodeIfPresent(startedAt, forKey: .startedAt)
            if !retentionMilliseconds.isEmpty { try container.encode(retentionMilliseconds, forKey: .retentionMs) }
            if skipCount != 0 { try container.encode(skipCount, forKey: .skips) }
        }
    }

    /// The course's name.
    public var course: String
    /// Completions in the order they happened.
    public var completions: [Completion]

    public init(course: String, completions: [Completion] = []) {
        self.course = course
        self.completions = completions
    }

    /// The keys of a record file; `decode` reads the same.
    private enum CodingKeys: String, CodingKey {
        case course, completed
    }

    /// `{"course": NAME, "completed": [completions in the order they happened]}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(course, forKey: .course)
        try container.encode(completions, forKey: .completed)
    }

    /// The first lesson (in course order) not yet completed, or nil when all `lessonCount` are done.
    public func nextLessonIndex(lessonCount: Int) -> Int? {
        let done = Set(completions.map(\.lessonIndex))
        return (0..<lessonCount).first { !done.contains($0) }
    }

    /// How many distinct lessons of the first `lessonCount` are done.
    public func completedCount(lessonCount: Int) -> Int {
        Set(completions.map(\.lessonIndex).filter { $0 < lessonCount }).count
    }

    /// The distinct days practised ("2026-11-29"), in order.
    public var datesPractised: [String] {
        var seen: [String] = []
        for completion in completions {
            let day = String(completion.completedAt.prefix(10))
            if !seen.contains(day) { seen.append(day) }
        }
        return seen
    }

    /// Reads a record as it is written (its `Encodable` form); any damage is an error naming the file and path.
    public static func decode(_ text: String, file: String) throws(ContentError) -> CourseProgress {
        let fields = try JSONFields(try JSONParser.parse(text, file: file), file: file, path: "$")
        try fields.rejectUnknownKeys(allowed: ["course", "completed"])
        guard let course = try fields.string("course") else { throw fields.error(nil, "missing \"course\"") }
        guard let items = try fields.array("completed") else { throw fields.error(nil, "missing \"completed\"") }
        var completions: [Completion] = []
        for (value, path) in items {
            let item = try JSONFields(value, file: file, path: path)
            try item.rejectUnknownKeys(allowed: ["lesson", "title", "completedAt", "startedAt", "retentionMs", "skips"])
            guard let lesson = try item.integer("lesson", in: 1...CourseDecoder.lessonLimit),
                  let title = try item.string("title"),
                  let completedAt = try item.string("completedAt"), completedAt.count >= 10 else {
                throw item.error(nil, "expected \"lesson\", \"title\" and \"completedAt\"")
            }
            var retentions: [Int64] = []
            for (element, elementPath) in try item.array("retentionMs") ?? [] {
                guard case let .number(milliseconds, _) = element, milliseconds >= 0, milliseconds <= 86_400_000, milliseconds == milliseconds.rounded() else {
                    throw ContentError(file: file, path: elementPath, reason: "expected a whole number of milliseconds")
                }
                retentions.append(Int64(milliseconds))
            }
            let skips = try item.integer("skips", in: 0...1_000_000) ?? 0
            completions.append(Completion(lessonIndex: lesson - 1, title: title, completedAt: completedAt, startedAt: try item.string("startedAt"), retentionMilliseconds: retentions, skipCount: skips))
        }
        return CourseProgress(course: course, completions: completions)
    }
}
