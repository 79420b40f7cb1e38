import Foundation
import Testing

/// A small tmpfs mounted for one test (CI runs as root), unmounted when released: a disk that fills, or a
/// read-only folder that root cannot write to either.
final class TemporaryMount {
    let url: URL

    /// Mounts a tmpfs of `size` (e.g. "64k") at a new folder inside `folder`, read-only if asked.
    init(in folder: URL, size: String, readOnly: Bool = false) throws {
        url = folder.appendingPathComponent(readOnly ? "read-only" : "small")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let status = Self.run("/bin/mount", ["-t", "tmpfs", "-o", (readOnly ? "ro," : "") + "size=" + size, "tmpfs", url.path])
        try #require(status == 0, "mounting a tmpfs needs root (CI runs as root)")
    }

    deinit {
        _ = Self.run("/bin/umount", [url.path])
    }

    private static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        guard let child = try? ChildProcess(executable, arguments, environment: ["PATH": "/usr/bin:/bin"]),
              child.wait(seconds: 30)
        else { return -1 }
        return child.exitStatus ?? -1
    }
}
