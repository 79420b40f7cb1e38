import Foundation
import NagiTestSupport
import Testing

/// Issue 21 item 8: on a terminal, `render --loudness` shows its first pass ("measuring loudness…") instead of
/// seconds of nothing, then the render's own bar, and leaves neither behind.
@Suite("The loudness pass on a terminal", .serialized)
struct LoudnessPassViewTests {
    @Test("render --loudness shows 'measuring loudness…' with a bar while the first pass runs")
    func renderShowsThePass() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is missing; .ci/run installs it")
        let folder = try NagiProcess.temporaryFolder()
        let session = "nagi-loudness-\(getpid())"
        // 40 minutes at 8 kHz mono: a first pass of a few seconds in a debug build, past the bar's first second.
        let command = "cd '\(folder.path)' && '\(NagiProcess.executableURL.path)' render coherent --minutes 40 --rate 8000 --channels 1 --no-cues --loudness -20 -o out.wav; echo \"exit=$?\" > status.txt; sleep 30"
        _ = try TerminalViewTests.tmux(["new-session", "-d", "-s", session, "-x", "100", "-y", "10", command])
        defer { _ = try? TerminalViewTests.tmux(["kill-session", "-t", session]) }

        let measuring = try TerminalViewTests.waitForScreen(session, containing: "measuring loudness…", seconds: 30)
        #expect(measuring.contains("measuring loudness…"), "\(measuring)")
        #expect(measuring.contains("%") && (measuring.contains("█") || measuring.contains("░")), "\(measuring)")
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: folder.path + "/status.txt"), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
        }
        let status = (try? String(contentsOfFile: folder.path + "/status.txt", encoding: .utf8)) ?? ""
        #expect(status.contains("exit=0"), "\(status)")
        let done = try TerminalViewTests.tmux(["capture-pane", "-t", session, "-p"])
        #expect(!done.contains("measuring loudness"), "the pass's bar is cleared: \(done)")
        #expect(done.contains("wrote out.wav"), "\(done)")
    }
}
