import NagiBase
import NagiSystem
import AudioFile
import Breath
import FoundationEssentials
import Glibc
import NagiDocuments
import NagiKit

/// Where course progress records live: `$XDG_STATE_HOME/nagi/` (default `~/.local/state/nagi/`), one
/// `<course>.progress.json` per course, written atomically. A damaged record is moved aside, never lost. The one
/// store of `nagi course next` / `status` and of `nagi serve`'s `POST /api/courses/NAME/lessons/N/done`.
package enum ProgressStore {
    /// The state folder, following the XDG base directory rules.
    package static var folder: String? { XDGFolder.state }

    package static func path(for course: String) throws(NagiError) -> String {
        guard let folder else { throw .cannotCreate("cannot keep course progress: neither XDG_STATE_HOME nor HOME is set") }
        return FilePath(folder).appending(course + ".progress.json").string
    }

    /// Loads the record, or an empty one. A damaged file is kept aside as `<file>.damaged-<time>` and reported
    /// through `warning` (a line ending in a newline); the learner carries on from an empty record.
    package static func load(course: String, warning: (String) -> Void) throws(NagiError) -> CourseProgress {
        let path = try path(for: course)
        guard FileKind.of(path) != .missing else {
            return CourseProgress(course: course)
        }
        let data: [UInt8]
        do { data = try InputFile.read(path, limit: 4 << 20) } catch { throw .input(error) }
        do throws(BreathError) {
            let record = try BreathError.reportingContent { () throws(ContentError) in
                try CourseProgress.decode(String(decoding: data, as: UTF8.self), file: path)
            }
            guard record.course == course else {
                throw BreathError.invalidContent(file: path, path: "$.course", reason: "belongs to course '\(record.course)'")
            }
            return record
        } catch {
            let aside = path + ".damaged-" + timestamp(for: Date()).replacing(":", with: "")
            if rename(path, aside) == 0 {
                warning("nagi: warning: the progress record \(path) is damaged (\(ErrorLine.printable(error.message))); kept it as \(aside) and starting a new record\n")
            } else {
                throw .io("the progress record \(path) is damaged (\(error.message)) and could not be moved aside: \(Errno.current.description)")
            }
            return CourseProgress(course: course)
        }
    }

    /// Saves the record atomically, creating the folder if needed.
    package static func save(_ record: CourseProgress) throws(NagiError) {
        let path = try path(for: record.course)
        let folder = FilePath(path).parent.string
        if let reason = FileSystem.makeFolders(folder) {
            throw .cannotCreate("cannot keep course progress: \(reason)")
        }
        try NagiError.reporting { () throws(TextFileError) in try TextFileOutput.write(JSONOutput.document(record), to: path, overwrite: true) }
    }

    /// Removes the record (`--reset`).
    package static func reset(course: String) throws(NagiError) {
        let path = try path(for: course)
        if FileManager.default.fileExists(atPath: path), unlink(path) != 0 {
            throw .io("cannot remove '\(path)': \(Errno.current.description)")
        }
    }

    /// An ISO 8601 UTC time ("2026-11-29T07:30:00Z").
    package static func timestamp(for date: Date) -> String {
        date.formatted(.iso8601)
    }
}
