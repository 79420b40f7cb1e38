import NagiTestSupport
import Breath
import Foundation
import Testing
@testable import NagiCLI
@testable import NagiOptions

/// The play view in a narrow terminal: its lines, and the real thing under tmux.
@Suite("nagi play's view fits narrow terminals", .serialized)
struct PlayViewWidthTests {
    static func boxSchedule() throws -> Schedule {
        try Schedule(session: Session(pattern: try InlinePattern.parse("4-4-4-4"), length: .cycles(2)), sampleRate: 48000)
    }

    @Test("every line fits the width, narrow views drop words not bars, and hints show from the start", arguments: [20, 32, 40, 80, 200])
    func linesFit(columns: Int) throws {
        let schedule = try Self.boxSchedule()
        for frame in stride(from: Int64(0), to: schedule.totalFrames, by: 24000) {
            let index = schedule.phaseIndex(containing: frame)
            let lines = LiveView.lines(schedule: schedule, title: "Box breathing, a long title that will not fit", frame: frame, phaseIndex: index, isPaused: false, ending: nil, columns: columns)
            #expect(lines.allSatisfy { $0.count <= columns - 1 }, "\(lines)")
            #expect(lines.last?.contains("q") == true && lines.last?.contains("space") == true, "\(lines)")
        }
        let wide = LiveView.lines(schedule: schedule, title: "Box", frame: 0, phaseIndex: 0, isPaused: false, ending: nil, columns: columns)
        if columns <= 32 { #expect(!wide[3].contains("breath") && wide[3].contains("1/2"), "\(wide[3])") }
        if columns >= 80 { #expect(wide[3].contains("breath 1/2 · 0:32 left"), "\(wide[3])") }
    }

    @Test("the last screen shows the end: a full bar and DONE, or STOPPED EARLY where it stopped")
    func lastScreen() throws {
        let schedule = try Self.boxSchedule()
        let done = LiveView.lines(schedule: schedule, title: "Box", frame: schedule.totalFrames, phaseIndex: schedule.phases.count - 1, isPaused: false, ending: .finished, columns: 32)
        #expect(done[1] == "  DONE")
        #expect(done[3].contains("━") && !done[3].contains("─"), "\(done[3])")
        let stopped = LiveView.lines(schedule: schedule, title: "Box", frame: schedule.totalFrames / 2, phaseIndex: schedule.phaseIndex(containing: schedule.totalFrames / 2), isPaused: false, ending: .stoppedEarly(key: "q"), columns: 32)
        #expect(stopped[1] == "  STOPPED EARLY")
        #expect(stopped[3].contains("─"))
        #expect(stopped[4] == "  ended with q before the end", "\(stopped)")
        // Issue 21 item 12: Esc is named as Esc, not as q.
        let escaped = LiveView.lines(schedule: schedule, title: "Box", frame: schedule.totalFrames / 2, phaseIndex: schedule.phaseIndex(containing: schedule.totalFrames / 2), isPaused: false, ending: .stoppedEarly(key: "Esc"), columns: 40)
        #expect(escaped[4] == "  ended with Esc before the end", "\(escaped)")
    }

    @Test("a view narrower than 8 columns or shorter than 4 rows is one line that fits (issue 21 item 17)", arguments: [(1, 24), (4, 24), (7, 24), (80, 1), (80, 3), (40, 5)])
    func tinyViewsDegradeToOneLine(columns: Int, rows: Int) throws {
        let schedule = try Self.boxSchedule()
        for (frame, ending) in [(Int64(0), LiveView.Ending?.none), (schedule.totalFrames, .finished), (schedule.totalFrames / 2, .stoppedEarly(key: "Esc"))] {
            let lines = LiveView.lines(schedule: schedule, title: "Box", frame: frame, phaseIndex: schedule.phaseIndex(containing: min(frame, schedule.totalFrames - 1)), isPaused: false, ending: ending, columns: columns, rows: rows)
            #expect(lines.count == 1, "\(columns)×\(rows): \(lines)")
            #expect(lines.allSatisfy { $0.count <= max(0, columns - 1) }, "\(columns)×\(rows): \(lines)")
            if columns >= 8 { #expect(lines[0] == (ending == nil ? "INHALE 4 s" : ending == .finished ? "DONE" : "STOPPED"), "\(lines)") }
        }
        let full = LiveView.lines(schedule: schedule, title: "Box", frame: 0, phaseIndex: 0, isPaused: false, ending: nil, columns: 9, rows: 6)
        #expect(full.count == 5, "the full view from 9 columns and 6 rows: \(full)")
    }

    static func waitForFile(_ path: String, seconds: Double) -> String {
        _ = Poll.until(seconds: seconds) { FileManager.default.fileExists(atPath: path) }
        Thread.sleep(forTimeInterval: 0.2)
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    @Test("at 32 columns under tmux: no wrapped or stacked lines, hints at once; q says 'stopped early' and exits 1")
    func narrowTerminal() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is missing")
        let server = try #require(PulseServer(), "pulseaudio could not start")
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = "nagi-narrow-\(getpid())"
        let command = "\(server.shellAssignments) '\(NagiProcess.executableURL.path)' play box --cycles 2 --device pulse 2>'\(folder.path)/stderr.txt'; echo \"exit=$?\" > '\(folder.path)/status.txt'; sleep 30"
        _ = try TerminalViewTests.tmux(["new-session", "-d", "-s", session, "-x", "32", "-y", "16", command])
        defer { _ = try? TerminalViewTests.tmux(["kill-session", "-t", session]) }

        let first = try TerminalViewTests.waitForScreen(session, containing: "INHALE", seconds: 15)
        #expect(first.contains("q"), "no key hints at the start: \(first)")
        Thread.sleep(forTimeInterval: 1.5)
        let later = try TerminalViewTests.tmux(["capture-pane", "-t", session, "-p"])
        let lines = later.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 32 }, "\(later)")
        // One copy of the view, however many redraws: the title is on one line only.
        #expect(lines.filter { $0.contains("Box breathing") }.count == 1, "\(later)")
        #expect(lines.filter { $0.contains("INHALE") || $0.contains("HOLD") || $0.contains("EXHALE") }.count == 1, "\(later)")

        _ = try TerminalViewTests.tmux(["send-keys", "-t", session, "q"])
        let status = Self.waitForFile(folder.path + "/status.txt", seconds: 10)
        #expect(status.contains("exit=1"), "\(status)")
        let errors = (try? String(contentsOfFile: folder.path + "/stderr.txt", encoding: .utf8)) ?? ""
        #expect(errors.contains("stopped early: practised"), "\(errors)")
        let screen = try TerminalViewTests.tmux(["capture-pane", "-t", session, "-p"])
        #expect(screen.contains("STOPPED EARLY"), "\(screen)")
    }

    @Test("played to the end at 32 columns: the last screen says DONE with a full bar, and exit 0")
    func finishedScreen() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is missing")
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = "nagi-done-\(getpid())"
        let command = "'\(NagiProcess.executableURL.path)' play box --cycles 1 --device \"file:'\(folder.path)/capture.raw',raw\" 2>'\(folder.path)/stderr.txt'; echo \"exit=$?\" > '\(folder.path)/status.txt'; sleep 30"
        _ = try TerminalViewTests.tmux(["new-session", "-d", "-s", session, "-x", "32", "-y", "16", command])
        defer { _ = try? TerminalViewTests.tmux(["kill-session", "-t", session]) }
        let status = Self.waitForFile(folder.path + "/status.txt", seconds: 30)
        #expect(status.contains("exit=0"), "\(status)")
        let screen = try TerminalViewTests.tmux(["capture-pane", "-t", session, "-p"])
        #expect(screen.contains("DONE"), "\(screen)")
        let bar = screen.split(separator: "\n").first { $0.contains("━") || $0.contains("─") } ?? ""
        #expect(bar.contains("━") && !bar.contains("─"), "\(screen)")
    }
}
