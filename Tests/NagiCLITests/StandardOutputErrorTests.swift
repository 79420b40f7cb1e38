import Foundation
import NagiTestSupport
import Testing

/// Issue 46, defect 4: a text command whose standard output cannot be written says so and exits 74 (/dev/full, a
/// full file system), or ends quietly with 141 when the reader has gone, as `render -o -` does.
@Suite("text commands check their writes to standard output")
struct StandardOutputErrorTests {
    /// Each text command, with what it needs in its folder.
    static let commands: [[String]] = [
        ["completions", "bash"], ["describe", "box", "--json"], ["describe", "box"], ["presets"], ["course", "list"],
        ["course", "show", "beginner-21"], ["help", "--man"], ["render", "--help"], ["plot", "4-7-8", "-o", "-"], ["--version"], ["resonance", "analyze", "rr.txt", "--json"],
    ]

    /// A folder holding `rr.txt`, a heart-rate record `resonance analyze` reads.
    static func folder() throws -> URL {
        let (folder, _) = try ResonanceCommandTests.recordFolder()
        return folder
    }

    static func shellWords(_ arguments: [String]) -> String {
        arguments.map { "'\($0)'" }.joined(separator: " ")
    }

    @Test("> /dev/full exits 74 with one line naming standard output", arguments: commands)
    func fullDevice(arguments: [String]) throws {
        let folder = try Self.folder()
        let run = try Pipeline.run(#""$NAGI" \#(Self.shellWords(arguments)) > /dev/full 2> err.txt; echo $? > status.txt"#, in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let status = try String(contentsOf: folder.appendingPathComponent("status.txt"), encoding: .utf8)
        let errorText = try String(contentsOf: folder.appendingPathComponent("err.txt"), encoding: .utf8)
        #expect(status == "74\n", "\(errorText)")
        #expect(errorText.hasPrefix("nagi: error: ") && errorText.contains("standard output") && errorText.contains("No space left on device"), "\(errorText)")
        #expect(errorText.split(separator: "\n").count == 1, "\(errorText)")
    }

    @Test("> a file on a full file system exits 74", .enabled(if: TmpfsMount.isAvailable, "mounting a tmpfs needs root"))
    func fullFileSystem() throws {
        let folder = try Self.folder()
        let mount = try TmpfsMount(in: folder, size: "64k")
        mount.fill()
        for arguments in [["help", "--man"], ["completions", "bash"], ["describe", "box", "--json"]] {
            let run = try Pipeline.run(#""$NAGI" \#(Self.shellWords(arguments)) > '\#(mount.file("out.txt"))' 2> err.txt; echo $? > status.txt"#, in: folder)
            #expect(run.status == 0, "\(run.standardError)")
            let status = try String(contentsOf: folder.appendingPathComponent("status.txt"), encoding: .utf8)
            let errorText = try String(contentsOf: folder.appendingPathComponent("err.txt"), encoding: .utf8)
            #expect(status == "74\n", "\(arguments): \(errorText)")
            #expect(errorText.contains("standard output"), "\(errorText)")
        }
    }

    @Test("a reader that has gone: 141, nothing said", arguments: commands)
    func readerClosed(arguments: [String]) throws {
        let folder = try Self.folder()
        // The pipe's read end is closed before nagi starts, so its first write fails with EPIPE, every time.
        let script = """
        import os, subprocess, sys
        read, write = os.pipe()
        os.close(read)
        child = subprocess.run([os.environ['NAGI']] + sys.argv[1:], stdout=write, stderr=subprocess.PIPE)
        open('status.txt', 'w').write(str(child.returncode))
        open('err.txt', 'wb').write(child.stderr)
        """
        try script.write(to: folder.appendingPathComponent("closed.py"), atomically: true, encoding: .utf8)
        let run = try Pipeline.run("python3 closed.py \(Self.shellWords(arguments))", in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let status = try String(contentsOf: folder.appendingPathComponent("status.txt"), encoding: .utf8)
        let errorText = try String(contentsOf: folder.appendingPathComponent("err.txt"), encoding: .utf8)
        #expect(status == "141", "\(errorText)")
        #expect(errorText.isEmpty, "\(errorText)")
    }
}
