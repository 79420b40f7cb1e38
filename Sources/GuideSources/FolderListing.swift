import NagiSystem
import Glibc

/// The entries of a folder, through opendir/readdir.
enum FolderListing {
    /// Names of the entries, hidden ones left out, whatever they are (files, folders, links, pipes).
    /// - Throws: `.folderUnreadable` naming `opendir` and the system's reason.
    static func visibleNames(in folder: String) throws(CuePackError) -> [String] {
        guard let directory = opendir(folder) else {
            throw .folderUnreadable(path: folder, reason: "opendir: " + Errno.current.description)
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
}
