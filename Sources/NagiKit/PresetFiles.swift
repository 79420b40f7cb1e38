import NagiBase
import NagiSystem
import AudioFile
import Breath
import FoundationEssentials
import Glibc
import NagiDocuments
import NagiPresets

/// Reads preset files: the catalog (the built-in table overlaid by a user's folder of
/// `{patterns,soundscapes,courses}/*.json`), and a JSON file a request names. The folder is the caller's value: which
/// one the user has (`$XDG_CONFIG_HOME/nagi/`) is the configuration layer's to say (NagiOptions' `PresetEnvironment`).
package enum PresetFiles {
    /// The largest preset file read: a preset is a few kilobytes.
    static let presetByteLimit = 4 * 1024 * 1024
    /// What a file over `presetByteLimit` is told.
    static let oversizeReason = "the file is larger than 4 MiB; a preset is a small JSON file"

    /// The catalog of built-in presets and those in `userFolder` (none when nil). Unreadable user files are skipped
    /// here and reported by `nagi presets`; a preset that fails to parse fails when it is used, naming its file.
    package static func catalog(userFolder: String?) -> PresetCatalog {
        PresetCatalog(builtinFiles: BuiltinPresets.files, userEntries: userEntries(in: userFolder))
    }

    /// The preset files in `folder`'s category folders, by category.
    package static func userEntries(in folder: String?) -> [PresetCatalog.Entry] {
        guard let folder else { return [] }
        var entries: [PresetCatalog.Entry] = []
        for category in PresetCatalog.Category.allCases {
            let categoryFolder = FilePath(folder).appending(category.rawValue).string
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: categoryFolder) else { continue }
            for fileName in names.sorted() where fileName.hasSuffix(".json") && !fileName.hasPrefix(".") {
                let path = FilePath(categoryFolder).appending(fileName).string
                // A FIFO or device is never opened: one without a writer would hang every command.
                guard FileKind.of(path) == .regularFile else { continue }
                guard let bytes = try? InputFile.read(path, limit: presetByteLimit) else { continue }
                let name = String(fileName.dropLast(5))
                guard bytes.count <= presetByteLimit else {
                    // Read only up to the limit: its cut-off text would be reported as a broken string.
                    entries.append(PresetCatalog.Entry(category: category, name: name, text: "", origin: .user(path: path), unusableReason: oversizeReason))
                    continue
                }
                // Invalid UTF-8 is kept as replacement characters so the parser reports it where used.
                let text = String(decoding: bytes, as: UTF8.self)
                entries.append(PresetCatalog.Entry(category: category, name: name, text: text, origin: .user(path: path)))
            }
        }
        return entries
    }

    /// The `.json` entries of `folder`'s category folders that are not regular files (pipes, devices, folders),
    /// which the catalog leaves out; `nagi presets` names them.
    package static func skippedUserFiles(in folder: String?) -> [String] {
        guard let folder else { return [] }
        var skipped: [String] = []
        for category in PresetCatalog.Category.allCases {
            let categoryFolder = FilePath(folder).appending(category.rawValue).string
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: categoryFolder) else { continue }
            for fileName in names.sorted() where fileName.hasSuffix(".json") && !fileName.hasPrefix(".") {
                let path = FilePath(categoryFolder).appending(fileName).string
                if FileKind.of(path) != .regularFile { skipped.append(path) }
            }
        }
        return skipped
    }

    /// Reads and parses a JSON file named on the command line.
    package static func parseFile(_ path: String) throws(BreathError) -> (value: JSONValue, file: String) {
        let (bytes, file) = try loadFile(path)
        return (try BreathError.reportingContent { () throws(ContentError) in try JSONParser.parse(bytes, file: file) }, file)
    }

    /// Reads a JSON file named on the command line or in a preset, as bytes, under `InputFile`'s rule: a missing
    /// path, a folder, a pipe or device, or an unreadable file is `.fileNotFound` (66), never opened where it could
    /// block; a read failing part way is `.readFailed` (74).
    package static func loadFile(_ path: String) throws(BreathError) -> (text: [UInt8], file: String) {
        // A preset is a few kilobytes; refuse anything absurd rather than reading it all.
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: presetByteLimit)
        } catch {
            switch error {
            case let .refused(path, reason): throw .fileNotFound(path: path, reason: reason)
            case let .readFailed(path, reason): throw .readFailed(path: path, reason: reason)
            }
        }
        guard bytes.count <= presetByteLimit else {
            throw .invalidContent(file: path, path: "$", reason: oversizeReason)
        }
        return (bytes, path)
    }
}
