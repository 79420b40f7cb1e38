import Locking
import NagiBase
import NagiSystem
import AudioFile
import Breath
import FoundationEssentials
import Glibc
import NagiDocuments

/// The record in an export folder of which track was made with which settings, and the size and
/// modification time it had when written (`.nagi-manifest.json`), so a second export skips what is
/// already done and redoes a track replaced since. Safe to update from several render threads.
package final class ExportManifest: Sendable {
    /// The manifest's file name inside the export folder.
    package static let fileName = ".nagi-manifest.json"

    private let path: String
    private let course: String
    /// What the manifest records, guarded: the export's workers record their tracks side by side.
    private struct Tracks: Sendable {
        var fingerprints: [String: String] = [:]
        /// Each recorded track's size and modification time as nagi left it.
        var stamps: [String: FileSystem.Stamp] = [:]
        /// Tracks an export started and did not see finish: killed between the track's rename and its
        /// record, or while rendering over an older nagi track. Such a file is nagi's to redo, not the user's.
        var writing: Set<String> = []
    }

    private let tracks: Locked<Tracks>

    /// Reads the folder's manifest; a missing or damaged one counts as empty (every track is redone).
    package init(folder: String, course: String) {
        path = FilePath(folder).appending(Self.fileName).string
        self.course = course
        tracks = Locked(Self.read(path))
    }

    /// The tracks recorded in the manifest at `path`; none when there is none or it cannot be read.
    private static func read(_ path: String) -> Tracks {
        var read = Tracks()
        guard let bytes = try? InputFile.read(path, limit: 4 << 20),
              let value = try? JSONParser.parse(bytes, file: path),
              case let .object(members, _) = value,
              case let .object(tracks, _)? = members["tracks"] else { return read }
        for (name, entry) in tracks {
            // An older manifest's bare fingerprint has no stamp: such a track is redone once.
            guard case let .object(fields, _) = entry, case let .string(fingerprint)? = fields["fingerprint"] else { continue }
            read.fingerprints[name] = fingerprint
            if case let .number(bytes, _)? = fields["bytes"], case let .string(modified)? = fields["modifiedNanoseconds"],
               let nanoseconds = Int64(modified), let byteCount = Int64(exactly: bytes) {
                read.stamps[name] = FileSystem.Stamp(byteCount: byteCount, modifiedNanoseconds: nanoseconds)
            }
        }
        if case let .array(names)? = members["writing"] {
            for case let .string(name) in names { read.writing.insert(name) }
        }
        return read
    }

    /// The fingerprint recorded for a track file, if any.
    package func fingerprint(for fileName: String) -> String? {
        tracks.withLock { $0.fingerprints[fileName] }
    }

    /// Whether the track at `path` is the one recorded under `fileName` with `fingerprint`: same
    /// settings, and the file still has the size and modification time it had when nagi wrote it.
    package func isUpToDate(_ fileName: String, fingerprint: String, path: String) -> Bool {
        guard let stamp = FileSystem.stamp(of: path) else { return false }
        return tracks.withLock { $0.fingerprints[fileName] == fingerprint && $0.stamps[fileName] == stamp }
    }

    /// Whether nagi wrote, or began writing, the file at this name: replacing it needs no `--force`.
    package func isExported(_ fileName: String) -> Bool {
        tracks.withLock { $0.fingerprints[fileName] != nil || $0.writing.contains(fileName) }
    }

    /// Notes that a track is about to be written, before anything reaches its path.
    package func beginWriting(_ fileName: String) {
        tracks.withLock { tracks in
            tracks.fingerprints[fileName] = nil
            tracks.stamps[fileName] = nil
            tracks.writing.insert(fileName)
            save(tracks)
        }
    }

    /// Records a finished track with the size and modification time of the file at `path`.
    package func record(_ fileName: String, fingerprint: String, path: String? = nil) {
        let stamp = path.flatMap(FileSystem.stamp(of:))
        tracks.withLock { tracks in
            tracks.fingerprints[fileName] = fingerprint
            tracks.stamps[fileName] = stamp
            tracks.writing.remove(fileName)
            save(tracks)
        }
    }

    /// Rewrites the manifest atomically with `tracks`; callers hold the lock, so saves never interleave.
    private func save(_ tracks: Tracks) {
        var entries: [String: Written.Track] = [:]
        for (name, fingerprint) in tracks.fingerprints {
            let stamp = tracks.stamps[name]
            // Nanoseconds as a string: a JSON number would lose them past 2^53.
            entries[name] = Written.Track(fingerprint: fingerprint, bytes: stamp?.byteCount, modifiedNanoseconds: stamp.map { String($0.modifiedNanoseconds) })
        }
        let written = Written(course: course, tracks: entries, writing: tracks.writing.isEmpty ? nil : tracks.writing.sorted())
        // A manifest that fails to write only costs a re-render next time; the track itself is whole.
        try? TextFileOutput.write(JSONOutput.document(written), to: path, overwrite: true)
    }

    /// The manifest as its file holds it: `read` takes the same keys.
    private struct Written: Encodable {
        /// One track's record; a track has its size and modification time once its file is whole.
        struct Track: Encodable {
            var fingerprint: String
            var bytes: Int64?
            var modifiedNanoseconds: String?
        }

        var course: String
        var tracks: [String: Track]
        /// The tracks begun and not yet recorded; left out when there are none.
        var writing: [String]?
    }
}
