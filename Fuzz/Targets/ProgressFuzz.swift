import Breath
import FoundationEssentials

/// libFuzzer target: the course progress record (`CourseProgress.decode`).
///
/// Invariants: errors are clean ContentErrors; a decoded record has lesson indices 0...998 and dates of
/// at least 10 characters, writes back (its `Encodable` form, which nagi's `JSONOutput` writes
/// to the progress file) to a record that decodes equal, and answers its queries.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProgress(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let progress: CourseProgress
    do {
        progress = try CourseProgress.decode(text, file: "progress.json")
    } catch {
        fuzzCheckClean(error, file: "progress.json", "progress")
        return 0
    }
    for completion in progress.completions {
        fuzzCheck((0..<CourseDecoder.lessonLimit).contains(completion.lessonIndex), "lesson index \(completion.lessonIndex)")
        fuzzCheck(completion.completedAt.count >= 10, "completedAt '\(completion.completedAt)'")
    }
    // The fuzz build compiles NagiDocuments alone, without NagiKit's `JSONOutput`: Foundation's encoder with the same
    // settings stands in for it (the record's own `encode(to:)` is what is under test).
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(progress) else {
        fuzzCheck(false, "the record could not be written")
        return 0
    }
    let written = String(decoding: data, as: UTF8.self)
    do {
        let again = try CourseProgress.decode(written, file: "progress.json")
        fuzzCheck(again == progress, "the record changed on a round trip: \(written)")
    } catch {
        fuzzCheck(false, "the written record no longer decodes: \(error)\n\(written)")
    }
    for lessonCount in [0, 1, 21, CourseDecoder.lessonLimit] {
        let done = progress.completedCount(lessonCount: lessonCount)
        fuzzCheck((0...lessonCount).contains(done), "\(done) of \(lessonCount) lessons done")
        if let next = progress.nextLessonIndex(lessonCount: lessonCount) {
            fuzzCheck((0..<lessonCount).contains(next), "next lesson \(next) of \(lessonCount)")
            fuzzCheck(!progress.completions.contains { $0.lessonIndex == next }, "next lesson \(next) is already done")
        } else {
            fuzzCheck(done == lessonCount, "no next lesson but only \(done) of \(lessonCount) done")
        }
    }
    let days = progress.datesPractised
    fuzzCheck(Set(days).count == days.count, "a day listed twice")
    return 0
}
