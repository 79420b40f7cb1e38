import NagiBase
import NagiSystem
import NagiOptions
import AudioFile
import Breath
import FoundationEssentials
import HeartRhythm
import NagiDocuments
import NagiKit

/// When `nagi play` last started a session: `$XDG_STATE_HOME/nagi/sessions/<name>.json`, one per pattern
/// name, so `resonance analyze --start-from-progress PATTERN` can place it in a heart-rate record. (A course
/// lesson's start is kept in the course's progress record instead.)
enum SessionStartRecord {
    /// The record's path for a session name.
    static func path(for name: String) throws(NagiError) -> String {
        guard let folder = ProgressStore.folder else { throw .cannotCreate("cannot keep the session's start: neither XDG_STATE_HOME nor HOME is set") }
        return folder + "/sessions/" + FileNames.safeStem(name) + ".json"
    }

    /// Saves `startedAt` for `name`, atomically.
    static func save(name: String, startedAt: String) throws(NagiError) {
        let path = try path(for: name)
        if let reason = FileSystem.makeFolders(FilePath(path).parent.string) {
            throw .cannotCreate("cannot keep the session's start: \(reason)")
        }
        let text = JSONOutput.line(Record(session: name, startedAt: startedAt))
        try NagiError.reporting { () throws(TextFileError) in try TextFileOutput.write(text, to: path, overwrite: true) }
    }

    /// The record as written: the session's name and when it started (ISO 8601, with the zone).
    private struct Record: Encodable {
        var session: String
        var startedAt: String
    }

    /// The last start recorded for a course (its last lesson with a start) or a session name.
    static func lastStart(of name: String) throws(NagiError) -> ClockTime {
        let coursePath = try ProgressStore.path(for: name)
        if FileKind.of(coursePath) != .missing {
            let record = try ProgressStore.load(course: name)
            guard let text = record.completions.last(where: { $0.startedAt != nil })?.startedAt else {
                throw .data("\(coursePath): no lesson of course '\(name)' has a recorded start yet; play one with `nagi course next \(name)`")
            }
            return try parse(text, file: coursePath)
        }
        let path = try path(for: name)
        guard FileKind.of(path) != .missing else {
            throw .noInput("no recorded start for '\(name)': play it with `nagi play \(name)` (or `nagi course next` for a course) first")
        }
        let bytes: [UInt8]
        do { bytes = try InputFile.read(path, limit: 1 << 16) } catch { throw .input(error) }
        let text: String
        do throws(ContentError) {
            let fields = try JSONFields(try JSONParser.parse(String(decoding: bytes, as: UTF8.self), file: path), file: path, path: "$")
            guard let startedAt = try fields.string("startedAt") else { throw fields.error(nil, "missing \"startedAt\"") }
            text = startedAt
        } catch {
            throw .breath(BreathError(error))
        }
        return try parse(text, file: path)
    }

    static func parse(_ text: String, file: String) throws(NagiError) -> ClockTime {
        guard let time = ClockTime.parse(Substring(text)) else { throw .data("\(file): \"startedAt\" \(text) is not an ISO 8601 date-time") }
        return time
    }

    /// `moment` as the record keeps it: ISO 8601 local time with milliseconds and the zone's offset.
    static func timestamp(of moment: Date) -> String {
        let offset = TimeZone.current.secondsFromGMT(for: moment)
        let wall = (moment.timeIntervalSince1970 * 1000).rounded() / 1000 + Double(offset)
        return ClockTime(wallSeconds: wall, zoneOffsetSeconds: offset, hasDate: true).isoText
    }
}
