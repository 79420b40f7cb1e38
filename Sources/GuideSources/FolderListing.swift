import Glibc

/// The entries of a folder, through opendir/readdir.
enum FolderListing {
    /// Names of the entries, hidden ones left out, whatever they are (files, folders, links, pipes).
    /// - Throws: `.folderUnreadable` naming `opendir` and the system's reason.
    static func visibleNames(in folder: String) throws(CuePackError) -> [String] {
        guard let directory = opendir(folder) else {
            throw .folderUnreadable(path: folder, reason: "opendir: " + String(cString: strerror(errno)))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard !name.hasPrefix(".") else { continue }
            names.append(name)
        }
        return names
    }

    /// Why `path` cannot be a clip's file ("is a folder", "is not a regular file"), following links; nil for a
    /// regular file. Never opens it: a FIFO would block, /dev/zero never ends.
    static func notAFileReason(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return "cannot be read: " + String(cString: strerror(errno)) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "is a folder, not an audio file"
        default: return "is not a regular file"
        }
    }

    /// `folder` + "/" + `name`.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
