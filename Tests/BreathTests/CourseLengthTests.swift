import NagiPresets
import Testing
@testable import Breath

/// Every built-in lesson is long enough to practise: cyclic sighing, the shortest, is practised for about
/// five minutes a day in the study it comes from (Balban et al. 2023, Cell Reports Medicine).
@Suite("Built-in course lessons are long enough to practise")
struct CourseLengthTests {
    static let catalog = PresetCatalog(builtinFiles: BuiltinPresets.files)

    /// The shortest lesson nagi ships.
    static let minimumMicroseconds: Int64 = 2 * 60 * Microseconds.perSecond

    @Test("every lesson of every built-in course is scheduled for at least 2 minutes")
    func everyLessonIsAtLeastTwoMinutes() throws {
        let names = Self.catalog.names(in: .courses)
        #expect(names.count >= 2)
        var lessonCount = 0
        for name in names {
            let course = try CourseDecoder(catalog: Self.catalog).course(named: name)
            for lesson in course.lessons {
                let schedule = try Schedule(session: lesson.session, sampleRate: 48_000)
                #expect(schedule.totalMicroseconds >= Self.minimumMicroseconds, "\(name): \(lesson.title) is \(Microseconds.formatSeconds(schedule.totalMicroseconds)) s")
                lessonCount += 1
            }
        }
        #expect(lessonCount >= 28)
    }

    @Test("beginner-21 Day 5 practises the sigh for about five minutes")
    func sighLessonIsFiveMinutes() throws {
        let course = try CourseDecoder(catalog: Self.catalog).course(named: "beginner-21")
        let lesson = try #require(course.lessons.first { $0.title.contains("Sigh") })
        let schedule = try Schedule(session: lesson.session, sampleRate: 48_000)
        #expect(abs(schedule.totalMicroseconds - 300_000_000) <= 10_500_000 / 2)
        #expect(schedule.phases.filter { $0.spokenWords == "sip in more" }.count == schedule.cycleCount)
    }
}
