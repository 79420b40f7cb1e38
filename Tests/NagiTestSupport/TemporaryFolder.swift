import Foundation

/// A fresh folder for one test, removed with everything in it when released.
///
/// Every folder lives inside `root`, one folder per test process under the system's temporary folder, which
/// is removed when the process exits: so `swift test` leaves nothing behind even for folders a test hands
/// out by URL (`TemporaryFolder.makeURL()`) or that a killed child process filled.
public final class TemporaryFolder: Sendable {
    /// The folder's location.
    public let url: URL

    /// The folder's path.
    public var path: String { url.path }

    /// Creates an empty folder inside `root`.
    public init() throws {
        url = try Self.makeURL()
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Names in the folder, hidden ones included, sorted.
    public var contents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? []
    }

    /// A fresh empty folder inside `root`, removed with it when the process exits.
    public static func makeURL() throws -> URL {
        let url = root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// This process's folder of test folders (`$TMPDIR/nagi-tests-<pid>`), created on first use and removed
    /// at exit.
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nagi-tests-\(getpid())")
        try? FileManager.default.removeItem(at: url)  // a leftover of a crashed run with this pid
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { TemporaryFolder.removeRoot() }
        return url
    }()

    private static func removeRoot() {
        // A tmpfs a test left mounted (it crashed mid-test) would make the removal fail; unmount it first.
        if let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) {
            for line in mounts.split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.count > 1, fields[1].hasPrefix(root.path + "/") {
                    _ = ChildProcess.status(of: "/bin/umount", [String(fields[1])])
                }
            }
        }
        try? FileManager.default.removeItem(at: root)
    }
}
