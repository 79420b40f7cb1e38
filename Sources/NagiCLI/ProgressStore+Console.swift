import NagiDocuments
import NagiOptions

extension ProgressStore {
    /// Loads the record, a damaged one reported on standard error (the command line's way).
    static func load(course: String) throws(NagiError) -> CourseProgress {
        try load(course: course, warning: Console.err)
    }
}
