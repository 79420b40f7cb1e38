import Foundation
import NagiTestSupport
import Testing

/// The terminal view and keys, driven through tmux on a paced PulseAudio device.
@Suite("nagi play's terminal view under tmux", .serialized)
struct TerminalViewTests {
    static func tmux(_ arguments: [String]) throws -> String {
        let output = try NagiProcess.temporaryFolder().appendingPathComponent("tmux.txt").path
        // The server's environment is its windows': a runtime folder for the pulse hook alsa-lib runs on any
        // device open (RuntimeFolder), which without one leaves pulse-XXXX in /tmp.
        let environment = ["PATH": "/usr/bin:/bin", "HOME": TemporaryFolder.root.path, "XDG_RUNTIME_DIR": TemporaryFolder.root.path, "TERM": "xterm"]
        let child = try ChildProcess("/usr/bin/tmux", arguments, environment: environment, standardOutputPath: output)
        _ = child.wait(seconds: 10)
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    static func waitForScreen(_ session: String, containing text: String, seconds: Double) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var screen = ""
        while Date() < deadline {
            screen = try tmux(["capture-pane", "-t", session, "-p"])
            if screen.contains(text) { return screen }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return screen
    }

    /// What a command showed when Ctrl-C stopped it: its exit status line ("exit=130"), the screen once it shows
    /// the text looked for after the key, and the first line holding that text.
    struct Interrupted {
        var status: String
        var screen: String
        var line: String?
    }

    /// Runs `command` (from `folder`) in a detached tmux session `columns` wide and `rows` high, presses Ctrl-C once
    /// the screen shows `shown`, and waits for its exit status and for the screen to show `after`.
    static func interrupt(_ command: String, in folder: URL, session: String, columns: Int = 100, rows: Int = 20, once shown: String, thenShowing after: String) throws -> Interrupted {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is missing; .ci/run installs it")
        let script = "cd '\(folder.path)' && \(command); echo \"exit=$?\" > '\(folder.path)/status.txt'; sleep 30"
        _ = try tmux(["new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)", script])
        defer { _ = try? tmux(["kill-session", "-t", session]) }
        let drawing = try waitForScreen(session, containing: shown, seconds: 30)
        try #require(drawing.contains(shown), "'\(shown)' never showed: \(drawing)")
        _ = try tmux(["send-keys", "-t", session, "C-c"])
        let status = PlayViewWidthTests.waitForFile(folder.path + "/status.txt", seconds: 20)
        let screen = try waitForScreen(session, containing: after, seconds: 5)
        return Interrupted(status: status, screen: screen, line: screen.split(separator: "\n").first { $0.contains(after) }.map(String.init))
    }

    @Test("the view shows the phase, a level bar and progress; space pauses and resumes; q ends gracefully")
    func viewAndKeys() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is missing; .ci/run installs it")
        let server = try #require(PulseServer(), "pulseaudio could not start; .ci/run installs it")
        let folder = try NagiProcess.temporaryFolder()
        let session = "nagi-view-\(getpid())"
        let command = "\(server.shellAssignments) '\(NagiProcess.executableURL.path)' play box --cycles 2 --device pulse 2>'\(folder.path)/stderr.txt'; echo \"exit=$?\" > '\(folder.path)/status.txt'; sleep 30"
        _ = try Self.tmux(["new-session", "-d", "-s", session, "-x", "100", "-y", "20", command])
        defer { _ = try? Self.tmux(["kill-session", "-t", session]) }

        let playing = try Self.waitForScreen(session, containing: "INHALE", seconds: 15)
        #expect(playing.contains("INHALE"), "\(playing)")
        #expect(playing.contains("Box breathing"))
        #expect(playing.contains("breath 1/2"))
        #expect(playing.contains("·") || playing.contains("█"))

        _ = try Self.tmux(["send-keys", "-t", session, " "])
        let paused = try Self.waitForScreen(session, containing: "PAUSED", seconds: 5)
        #expect(paused.contains("PAUSED"), "\(paused)")
        _ = try Self.tmux(["send-keys", "-t", session, " "])
        let resumed = try Self.waitForScreen(session, containing: "INHALE", seconds: 5)
        #expect(!resumed.contains("PAUSED"), "\(resumed)")

        _ = try Self.tmux(["send-keys", "-t", session, "q"])
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: folder.path + "/status.txt"), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let status = (try? String(contentsOfFile: folder.path + "/status.txt", encoding: .utf8)) ?? ""
        // Quitting early is told apart from finishing: exit 1, and the last line says so.
        #expect(status.contains("exit=1"), "\(status)")
        let errorText = (try? String(contentsOfFile: folder.path + "/stderr.txt", encoding: .utf8)) ?? ""
        #expect(errorText.contains("stopped early: practised 0 breaths"), "\(errorText)")
    }
}
