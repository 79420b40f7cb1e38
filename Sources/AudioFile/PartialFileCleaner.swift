import NagiBase
import NagiSystem
import FoundationEssentials
import Glibc
import Glibc

/// Removes what crashed or killed writers left behind.
public enum PartialFileCleaner {
    /// Removes stale ".*.nagi-partial-<pid>" regular files in `folder` whose process is no longer alive.
    /// Returns the removed names, sorted. Files of live processes, and everything else, are left alone.
    public static func removeStale(in folder: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var removed: [String] = []
        for name in names.sorted() {
            guard let pid = PartialFileName.ownerPID(of: name), !isAlive(pid) else { continue }
            let path = FilePath(folder).appending(name).string
            guard FileKind.of(path, followingLinks: false) == .regularFile else { continue }
            if unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Whether a process with this id exists (EPERM means it exists but belongs to someone else).
    static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
