import Foundation
import Glibc

/// A small tmpfs mounted for one test (CI runs as root), unmounted when released: a disk that fills for
/// real, or a read-only folder that root cannot write to either.
public final class TmpfsMount {
    /// The mount point.
    public let url: URL
    /// The mount point's path.
    public var path: String { url.path }
    /// The folder holding the mount point, when the mount made its own.
    private let parent: TemporaryFolder?

    /// Why a mount failed.
    public struct Failure: Error, CustomStringConvertible {
        public let status: Int32
        public var description: String { "mount -t tmpfs exited with \(status); mounting a tmpfs needs root (CI runs as root)" }
    }

    /// Whether this machine lets the tests mount a tmpfs, probed once.
    public static let isAvailable: Bool = (try? TmpfsMount(size: "64k")) != nil

    /// Mounts a tmpfs of `size` (e.g. "64k") at a new folder inside `folder` (or a temporary folder of its
    /// own), read-only if asked.
    public init(in folder: URL? = nil, size: String, readOnly: Bool = false) throws {
        let parent = folder == nil ? try TemporaryFolder() : nil
        let base = folder ?? parent?.url ?? TemporaryFolder.root
        url = base.appendingPathComponent(readOnly ? "read-only" : "small")
        self.parent = parent
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let status = ChildProcess.status(of: "/bin/mount", ["-t", "tmpfs", "-o", (readOnly ? "ro," : "") + "size=" + size, "tmpfs", url.path])
        guard status == 0 else { throw Failure(status: status) }
    }

    deinit {
        _ = ChildProcess.status(of: "/bin/umount", [url.path])
    }

    /// The path of `name` on the mount.
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Names on the mount, sorted.
    public var contents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? []
    }

    /// Fills the file system with a file named "filler" until it refuses more, then gives `bytes` back.
    public func fill(leaving bytes: Int = 0) {
        let descriptor = open(file("filler"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        // tmpfs may take a last partial page.
        while Glibc.write(descriptor, block, 1) > 0 {}
        let size = lseek(descriptor, 0, SEEK_END)
        ftruncate(descriptor, max(0, size - off_t(bytes)))
    }
}
