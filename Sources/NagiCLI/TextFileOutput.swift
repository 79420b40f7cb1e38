import Glibc

/// Writes small text outputs (labels, playlists, manifests, SVG, progress records) safely: never a partial
/// file at the target path.
enum TextFileOutput {
    /// Writes `text` to `path` through a temporary file in the same folder, fsync and a rename.
    /// An existing regular file is kept unless `overwrite` (exit 73); a non-regular target (a pipe,
    /// /dev/null, /dev/stdout) is written straight.
    static func write(_ text: String, to path: String, overwrite: Bool) throws(CLIError) {
        let bytes = Array(text.utf8)
        switch FileSystem.kind(of: path) {
        case .folder:
            throw .cannotCreate("cannot write '\(path)': it is a folder")
        case .other:
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .cannotCreate("cannot write '\(path)': \(FileSystem.lastErrorText)") }
            defer { close(descriptor) }
            guard FileSystem.writeAll(descriptor, bytes) else { throw .io("cannot write '\(path)': \(FileSystem.lastErrorText)") }
            return
        case .regularFile:
            guard overwrite else { throw .cannotCreate("'\(path)' already exists; use --force to replace it") }
        case .missing:
            break
        }
        let folder = FileSystem.folder(of: path)
        guard FileSystem.kind(of: folder) == .folder else {
            throw .cannotCreate("cannot create '\(path)': the folder '\(folder)' does not exist")
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = folder + "/." + name + ".nagi-partial-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotCreate("cannot create '\(path)': \(FileSystem.lastErrorText)") }
        let written = FileSystem.writeAll(descriptor, bytes) && fsync(descriptor) == 0
        let reason = FileSystem.lastErrorText
        close(descriptor)
        guard written else {
            unlink(temporary)
            throw .io("cannot write '\(path)': \(reason)")
        }
        if rename(temporary, path) != 0 {
            let reason = FileSystem.lastErrorText
            unlink(temporary)
            throw .cannotCreate("cannot create '\(path)': \(reason)")
        }
    }

    /// Whether `path` exists as a regular file (so writing it needs --force).
    static func isExistingRegularFile(_ path: String) -> Bool {
        FileSystem.kind(of: path) == .regularFile
    }
}
