import Foundation

/// Writes small text outputs (labels, playlists, manifests, SVG, progress records) safely: never a partial
/// file at the target path.
enum TextFileOutput {
    /// Writes `text` to `path` through a temporary file in the same folder and a rename.
    /// An existing regular file is kept unless `overwrite` (exit 73); a non-regular target (a pipe,
    /// /dev/null, /dev/stdout) is written straight.
    static func write(_ text: String, to path: String, overwrite: Bool) throws(CLIError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw .cannotCreate("cannot write '\(path)': it is a folder")
            }
            let type = (try? manager.attributesOfItem(atPath: path)[.type]) as? FileAttributeType
            if type != .typeRegular {
                guard let handle = FileHandle(forWritingAtPath: path) else {
                    throw .cannotCreate("cannot write '\(path)': permission denied")
                }
                defer { try? handle.close() }
                do {
                    try handle.write(contentsOf: Data(text.utf8))
                } catch {
                    throw .io("cannot write '\(path)': \(error.localizedDescription)")
                }
                return
            }
            guard overwrite else {
                throw .cannotCreate("'\(path)' already exists; use --force to replace it")
            }
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        guard manager.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .cannotCreate("cannot create '\(path)': the folder '\(folder)' does not exist")
        }
        let temporary = folder + "/." + url.lastPathComponent + ".nagi-partial-\(ProcessInfo.processInfo.processIdentifier)"
        guard manager.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw .cannotCreate("cannot create '\(path)': permission denied or disk full")
        }
        if let handle = FileHandle(forWritingAtPath: temporary) {
            try? handle.synchronize()
            try? handle.close()
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotCreate("cannot create '\(path)': \(reason)")
        }
    }

    /// Whether `path` exists as a regular file (so writing it needs --force).
    static func isExistingRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return false }
        return ((try? FileManager.default.attributesOfItem(atPath: path)[.type]) as? FileAttributeType) == .typeRegular
    }
}
