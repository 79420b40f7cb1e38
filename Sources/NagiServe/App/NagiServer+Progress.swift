import FoundationEssentials
import Locking
import NagiDocuments
import NagiKit
import NagiOptions

/// A course followed day by day in the browser, on the same record `nagi course status` prints (ProgressStore):
/// `GET /api/courses/NAME/progress` (the lessons done, the next, the days practised, and the token a page sends
/// back) and `POST /api/courses/NAME/lessons/N/done` (a lesson played to its end). The POST changes state, so it
/// must come from a page of this server: its `Origin` must name the `Host` it was sent to, and its
/// `X-Nagi-Token` header must carry the token the progress answer gave (a page of another site can send the
/// request but cannot read that answer); else 403 and nothing changes.
extension NagiServer {
    /// The token this server's pages send with a POST; new at each start.
    private static let progressToken = RequestGuard.makeToken()
    /// One update of a record at a time (read, add, write).
    private static let progressLock = Lock()

    /// A request answered before it reaches the record.
    private struct Refusal: Error {
        var response: HTTPResponse
    }

    /// The course named `name`.
    private func followedCourse(_ name: String) throws(Refusal) -> Course {
        guard UserFolders.isPlainName(name) else { throw Refusal(response: Self.notFound("/api/courses/" + name)) }
        let catalog = PresetEnvironment.catalog()
        do {
            return try CourseDecoder(catalog: catalog).course(named: name)
        } catch {
            throw Refusal(response: APIResponse.courseError(error))
        }
    }

    /// `{"course", "done": [lesson numbers], "next": number or null, "practised": [days], "token"}`.
    func progress(course name: String) -> HTTPResponse {
        let course: Course
        do throws(Refusal) { course = try followedCourse(name) } catch { return error.response }
        do {
            let record = try ProgressStore.load(course: course.name, warning: { _ in })
            return APIResponse.json(Self.progressDocument(record, lessonCount: course.lessons.count))
        } catch {
            return APIResponse.error(error)
        }
    }

    /// The progress answer for `record` of a course of `lessonCount` lessons.
    private static func progressDocument(_ record: CourseProgress, lessonCount: Int) -> ProgressDocument {
        let done = Set(record.completions.map(\.lessonIndex)).filter { $0 < lessonCount }.sorted().map { $0 + 1 }
        return ProgressDocument(
            course: record.course, done: done, next: JSONNullable(record.nextLessonIndex(lessonCount: lessonCount).map { $0 + 1 }),
            practised: record.datesPractised, token: progressToken)
    }

    /// `GET /api/courses/NAME/progress`: the lessons done (numbers from 1), the next (`null` once all are done), the
    /// days practised ("2026-11-29") and the token a page sends back with a POST.
    private struct ProgressDocument: Encodable {
        var course: String
        var done: [Int]
        var next: JSONNullable<Int>
        var practised: [String]
        var token: String
    }

    /// Records lesson `lessonText` (1-based) of `name` as completed now, once; answers with the progress.
    func markDone(_ request: HTTPRequest, course name: String, lessonText: String) -> HTTPResponse {
        guard let origin = request.header("origin"), let host = request.header("host"),
              origin == "http://" + host || origin == "https://" + host else {
            return APIResponse.error("a lesson is marked done only from this server's own pages (the Origin header must name \(request.header("host") ?? "this server"))", status: 403)
        }
        guard let given = request.header("x-nagi-token"), RequestGuard.equalInConstantTime(given, Self.progressToken) else {
            return APIResponse.error("a lesson is marked done only with the token of GET /api/courses/NAME/progress in an X-Nagi-Token header", status: 403)
        }
        let course: Course
        do throws(Refusal) { course = try followedCourse(name) } catch { return error.response }
        guard let number = Int(lessonText), (1...course.lessons.count).contains(number) else {
            return APIResponse.error("course '\(course.name)' has lessons 1 to \(course.lessons.count), not '\(lessonText)'", status: 404)
        }
        do throws(NagiError) {
            let record = try Self.progressLock.withLock { () throws(NagiError) -> CourseProgress in
                var record = try ProgressStore.load(course: course.name, warning: { _ in })
                if !record.completions.contains(where: { $0.lessonIndex == number - 1 }) {
                    record.completions.append(CourseProgress.Completion(lessonIndex: number - 1, title: course.lessons[number - 1].title, completedAt: ProgressStore.timestamp(for: Date())))
                    try ProgressStore.save(record)
                }
                return record
            }
            return APIResponse.json(Self.progressDocument(record, lessonCount: course.lessons.count))
        } catch {
            return APIResponse.error(error)
        }
    }
}
