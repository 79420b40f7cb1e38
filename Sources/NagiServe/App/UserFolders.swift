import NagiBase
import NagiSystem
import Glibc
import NagiKit
import NagiOptions

/// The user's own beds and cue packs, the only files a request may name, and only by name:
/// `$XDG_CONFIG_HOME/nagi/beds/NAME.EXT` (a recording) and `$XDG_CONFIG_HOME/nagi/cue-packs/NAME/` (a folder of
/// clips). A name with a slash, a leading dot or `..`, and one whose file resolves (through symbolic links) outside
/// its folder, is no name: 404.
package struct UserFolders: Sendable {
    /// `$XDG_CONFIG_HOME/nagi` (default `~/.config/nagi`); nil when neither that nor HOME is set.
    package var root: String?

    package init(root: String? = PresetEnvironment.userPresetFolder) {
        self.root = root
    }

    /// The folder of beds.
    var bedFolder: String? { root.map { $0 + "/beds" } }
    /// The folder of cue packs.
    var cuePackFolder: String? { root.map { $0 + "/cue-packs" } }

    /// The beds' names, sorted.
    package var bedNames: [String] { names(in: bedFolder, wantsFolders: false) }
    /// The cue packs' names, sorted.
    package var cuePackNames: [String] { names(in: cuePackFolder, wantsFolders: true) }

    /// The path of the bed called `name`.
    /// - Throws: 404 (`.noInput`) for a name that is none, or no such bed.
    func bed(named name: String) throws(QueryError) -> String {
        guard Self.isPlainName(name), let folder = bedFolder else { throw Self.notFound("bed", name) }
        let entries = Self.entries(of: folder).filter { Self.stem(of: $0) == name }
        guard let entry = entries.sorted().first, let path = Self.contained(FilePath(folder).appending(entry).string, in: folder),
              FileKind.of(path) == .regularFile else {
            throw Self.notFound("bed", name)
        }
        return path
    }

    /// The path of the cue pack called `name`.
    /// - Throws: 404 for a name that is none, or no such folder.
    func cuePack(named name: String) throws(QueryError) -> String {
        guard Self.isPlainName(name), let folder = cuePackFolder, let path = Self.contained(FilePath(folder).appending(name).string, in: folder),
              FileKind.of(path) == .folder else {
            throw Self.notFound("cue pack", name)
        }
        return path
    }

    /// The names in `folder`: files by their stem, or folders.
    private func names(in folder: String?, wantsFolders: Bool) -> [String] {
        guard let folder else { return [] }
        var names: Set<String> = []
        for entry in Self.entries(of: folder) where !entry.hasPrefix(".") {
            guard let path = Self.contained(FilePath(folder).appending(entry).string, in: folder) else { continue }
            let kind = FileKind.of(path)
            if wantsFolders, kind == .folder { names.insert(entry) }
            if !wantsFolders, kind == .regularFile { names.insert(Self.stem(of: entry)) }
        }
        return names.sorted()
    }

    /// A name a request may give: not empty, no slash, no NUL, not starting with a dot (so neither `.` nor `..`).
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\0") && name.utf8.count <= 255
    }

    /// `path` resolved through its symbolic links, if it exists and lies inside `folder` (resolved too).
    static func contained(_ path: String, in folder: String) -> String? {
        guard let resolvedFolder = realPath(folder), let resolved = realPath(path) else { return nil }
        return resolved.hasPrefix(resolvedFolder + "/") ? resolved : nil
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A file name without its last extension ("waves.flac" → "waves").
    static func stem(of fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName }
        return String(fileName[..<dot])
    }

    /// The names in a folder, unsorted; none when it cannot be read.
    static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    private static func notFound(_ kind: String, _ name: String) -> QueryError {
        QueryError(.noInput("no \(kind) named '\(name)' in your own \(kind == "bed" ? "beds" : "cue packs") folder"), parameter: kind == "bed" ? "bed" : "cue-pack")
    }
}
