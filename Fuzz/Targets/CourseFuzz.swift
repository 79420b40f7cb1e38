import Breath

/// libFuzzer target: course documents.
///
/// Invariants: errors are clean ContentErrors; a decoded course has a safe name, a title, 1 to 999
/// lessons with titles, and every lesson's session measures within the limits and (for the first few
/// lessons) schedules without error, keeping ScheduleInvariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCourse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let decoder = CourseDecoder(catalog: FuzzCatalog.shared)
    let course: Course
    do {
        course = try decoder.decode(try JSONParser.parse(bytes, file: "fuzz.json"), file: "fuzz.json")
    } catch {
        fuzzCheckClean(error, file: "fuzz.json", "course")
        return 0
    }
    fuzzCheck(CourseDecoder.isSafeName(course.name), "unsafe course name '\(course.name)'")
    fuzzCheck(!course.title.isEmpty, "empty course title")
    fuzzCheck((1...CourseDecoder.lessonLimit).contains(course.lessons.count), "\(course.lessons.count) lessons")
    for (index, lesson) in course.lessons.enumerated() {
        fuzzCheck(!lesson.title.isEmpty, "lesson \(index) has no title")
        fuzzCheck(lesson.session.title != nil, "lesson \(index)'s session has no title")
        fuzzCheck(lesson.soundscape.map { !$0.isEmpty } ?? true, "lesson \(index) has an empty soundscape")
        do {
            let microseconds = try SessionExpander.totalMicroseconds(of: lesson.session.stages)
            fuzzCheck(microseconds > 0 && microseconds <= Microseconds.sessionLimit, "lesson \(index): \(microseconds) µs")
        } catch {
            fuzzCheck(false, "lesson \(index) decoded but does not measure: \(error)")
        }
        if index < 3 {
            ScheduleInvariants.scheduleAndCheck(lesson.session, sampleRate: 48_000, mustSucceed: true, context: "lesson \(index)")
        }
    }
    return 0
}
