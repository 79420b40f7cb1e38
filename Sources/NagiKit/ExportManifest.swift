import FilePaths
import NagiSystem
import AudioFile
import Breath
import FoundationEssentials
import Glibc
import Locking
import NagiDocuments

/// The record in an export folder of which track was made with which settings, and the size and
/// modification time it had when written (`.nagi-manifest.json`), so a second export skips what is
/// already done and redoes a track replaced since. Safe to update from several render threads.
package final class ExportManifest: @unchecked Sendable {
    /// The manifest's file name inside the export folder.
    package static let fileName = ".nagi-manifest.json"

    private let path: String
    private let course: String
    private let lock = Lock()
    private var fingerprints: [String: String]
    /// Each recorded track's size and modification time as nagi left it.
    private var stamps: [String: FileSystem.Stamp] = [:]
    /// Tracks an export started and did not see finish: killed between the track's rename and its
    /// record, or while rendering over an older nagi track. Such a file is nagi's to redo, not the user's.
    private var writing: Set<String> = []

    /// Reads the folder's manifest; a missing or damaged one counts as empty (every track is redone).
    package init(folder: String, course: String) {
        path = FilePath(folder).appending(Self.fileName).string
        self.course = course
        fingerprints = [:]
        guard let bytes = try? InputFile.read(path, limit: 4 << 20),
              let value = try? JSONParser.parse(bytes, file: path),
              case let .object(members, _) = value,
              case let .object(tracks, _)? = members["tracks"] else { return }
        for (name, entry) in tracks {
            // An older manifest's bare fingerprint has no stamp: such a track is redone once.
            guard case let .object(fields, _) = entry, case let .string(fingerprint)? = fields["fingerprint"] else { continue }
            fingerprints[name] = fingerprint
            if case let .number(bytes, _)? = fields["bytes"], case let .string(modified)? = fields["modifiedNanoseconds"],
               let nanoseconds = Int64(modified), let byteCount = Int64(exactly: bytes) {
                stamps[name] = FileSystem.Stamp(byteCount: byteCount, modifiedNanoseconds: nanoseconds)
            }
        }
        if case let .array(names)? = members["writing"] {
            for case let .string(name) in names { writing.insert(name) }
        }
    }

    /// The fingerprint recorded for a track file, if any.
    package func fingerprint(for fileName: String) -> String? {
        lock.withLock { fingerprints[fileName] }
    }

    /// Whether the track at `path` is the one recorded under `fileName` with `fingerprint`: same
    /// settings, and the file still has the size and modification time it had when nagi wrote it.
    package func isUpToDate(_ fileName: String, fingerprint: String, path: String) -> Bool {
        guard let stamp = FileSystem.stamp(of: path) else { return false }
        return lock.withLock { fingerprints[fileName] == fingerprint && stamps[fileName] == stamp }
    }

    /// Whether nagi wrote, or began writing, the file at this name: replacing it needs no `--force`.
    package func isExported(_ fileName: String) -> Bool {
        lock.withLock { fingerprints[fileName] != nil || writing.contains(fileName) }
    }

    /// Notes that a track is about to be written, before anything reaches its path.
    package func beginWriting(_ fileName: String) {
        lock.withLock {
            fingerprints[fileName] = nil
            stamps[fileName] = nil
            writing.insert(fileName)
            save()
        }
    }

    /// Records a finished track with the size and modification time of the file at `path`.
    package func record(_ fileName: String, fingerprint: String, path: String? = nil) {
        let stamp = path.flatMap(FileSystem.stamp(of:))
        lock.withLock {
            fingerprints[fileName] = fingerprint
            stamps[fileName] = stamp
            writing.remove(fileName)
            save()
        }
    }

    /// Rewrites the manifest atomically; callers hold the lock.
    private func save() {
        let entries = fingerprints.keys.sorted().map { name in
            var fields = "\"fingerprint\": \(JSONText.quote(fingerprints[name] ?? ""))"
            if let stamp = stamps[name] {
                // Nanoseconds as a string: a JSON number would lose them past 2^53.
                fields += ", \"bytes\": \(stamp.byteCount), \"modifiedNanoseconds\": \"\(stamp.modifiedNanoseconds)\""
            }
            return "    \(JSONText.quote(name)): {\(fields)}"
        }
        var text = "{\n  \"course\": \(JSONText.quote(course)),\n  \"tracks\": {\n" + entries.joined(separator: ",\n") + "\n  }"
        if !writing.isEmpty {
            text += ",\n  \"writing\": [" + writing.sorted().map(JSONText.quote).joined(separator: ", ") + "]"
        }
        text += "\n}\n"
        // A manifest that fails to write only costs a re-render next time; the track itself is whole.
        try? TextFileOutput.write(text, to: path, overwrite: true)
    }
}
