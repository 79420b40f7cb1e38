import Breath
import Foundation
import NagiTestSupport
import Testing
@testable import NagiCLI
@testable import NagiDocuments
@testable import NagiKit

/// What `nagi play`'s screen says outside the breathing and in an open hold (issue 46, defects 11 and 12): a
/// countdown's lead-in is GET READY with the seconds to the first inhale, not the first inhale frozen; the release and
/// end bell are ENDING, not the last phase frozen at "1 s"; an open hold's 5-minute maximum is not time left.
@Suite("nagi play's view: countdown, ending, open holds", .serialized)
struct LiveViewStateTests {
    static let rate = 8000

    static func schedule(_ pattern: String, cycles: Int) throws -> Schedule {
        try Schedule(session: Session(pattern: try InlinePattern.parse(pattern), length: .cycles(cycles)), sampleRate: rate)
    }

    /// wim-hof with its retentions open, scheduled as `play --retention open` schedules it (each at its maximum).
    static func openWimHof() throws -> Schedule {
        let decoder = SessionDecoder(catalog: PresetFiles.catalog(userFolder: nil))
        let session = try decoder.resolveArgument("wim-hof", loadFile: PresetFiles.loadFile).resolved.session
        let open = try #require(session.withOpenRetention())
        return try Schedule(session: open.withOpenPhasesLasting(Phase.openMaximumMicroseconds), sampleRate: rate)
    }

    static func status(_ schedule: Schedule, frame: Int64, columns: Int = 80, rows: Int = 24, held: Int64? = nil) -> [String] {
        let index = schedule.phaseIndex(containing: min(max(0, frame), schedule.totalFrames - 1))
        return LiveView.lines(schedule: schedule, title: "T", frame: frame, phaseIndex: index, isPaused: false, ending: nil, columns: columns, rows: rows, heldFrameCount: held)
    }

    @Test("a countdown's lead-in shows GET READY and the seconds to the first inhale, in the full and the one-line view")
    func countdownState() throws {
        let schedule = try Self.schedule("4-7-8", cycles: 2)
        for (frame, seconds) in [(Int64(-3 * Self.rate), 3), (Int64(-3 * Self.rate + 1), 3), (Int64(-Self.rate / 2), 1), (-1, 1)] {
            let lines = Self.status(schedule, frame: frame)
            #expect(lines[1].hasPrefix("  GET READY  \(seconds) s"), "frame \(frame): \(lines)")
            #expect(!lines[1].contains("INHALE"), "\(lines)")
            // The whole session is still ahead: nothing done, and the lead-in counted in the time left.
            #expect(lines[3].contains("breath 1/2"))
            #expect(!lines[3].contains("━"), "\(lines)")
            let compact = Self.status(schedule, frame: frame, columns: 40, rows: 3)
            #expect(compact == ["GET READY \(seconds) s"])
        }
        // From frame 0 on, the inhale as before.
        #expect(Self.status(schedule, frame: 0)[1].hasPrefix("  INHALE  4 s"))
    }

    @Test("past the last phase (the release, the end bell) the view shows ENDING with nothing left")
    func endingState() throws {
        let schedule = try Self.schedule("4-7-8", cycles: 2)
        for frame in [schedule.totalFrames, schedule.totalFrames + Int64(3 * Self.rate)] {
            let lines = Self.status(schedule, frame: frame)
            #expect(lines[1] == "  ENDING", "\(lines)")
            #expect(lines[3].contains("0:00 left"), "\(lines)")
            #expect(!lines[3].contains("─"), "the progress bar is full: \(lines)")
            #expect(Self.status(schedule, frame: frame, columns: 40, rows: 3) == ["ENDING"])
        }
        // The last frame of the breathing is still its last phase.
        #expect(Self.status(schedule, frame: schedule.totalFrames - 1)[1].hasPrefix("  EXHALE  1 s"))
    }

    @Test("the full and the one-line view name the same moment: paused, stopped, held, a phase's seconds left")
    func bothLayoutsNameTheSameMoment() throws {
        let schedule = try Self.schedule("4-7-8", cycles: 2)
        func both(frame: Int64, paused: Bool = false, ending: LiveView.Ending? = nil, held: Int64? = nil) -> (full: String, compact: String) {
            let index = schedule.phaseIndex(containing: min(max(0, frame), schedule.totalFrames - 1))
            let full = LiveView.lines(schedule: schedule, title: "T", frame: frame, phaseIndex: index, isPaused: paused, ending: ending, columns: 80, heldFrameCount: held)
            let compact = LiveView.lines(schedule: schedule, title: "T", frame: frame, phaseIndex: index, isPaused: paused, ending: ending, columns: 40, rows: 3, heldFrameCount: held)
            return (full[1], compact[0])
        }
        // 1.5 s into the 4 s inhale: 2.5 s left, shown rounded up.
        let inhale = both(frame: Int64(3 * Self.rate / 2))
        #expect(inhale.full.hasPrefix("  INHALE  3 s") && inhale.compact == "INHALE 3 s", "\(inhale)")
        let paused = both(frame: Int64(3 * Self.rate / 2), paused: true)
        #expect(paused.full.hasPrefix("  PAUSED") && paused.compact == "PAUSED", "\(paused)")
        // In the 7 s hold, held for 12 s (an open hold's clock): the full view says "held".
        let hold = both(frame: Int64(5 * Self.rate), held: Int64(12 * Self.rate))
        #expect(hold.full.hasPrefix("  HOLD  held 0:12") && hold.compact == "HOLD 0:12", "\(hold)")
        let stopped = both(frame: Int64(5 * Self.rate), ending: .stoppedEarly(key: "q"))
        #expect(stopped.full == "  STOPPED EARLY" && stopped.compact == "STOPPED", "\(stopped)")
        let done = both(frame: schedule.totalFrames, ending: .finished)
        #expect(done.full == "  DONE" && done.compact == "DONE", "\(done)")
    }

    /// "m:ss" of `frames` at the test's rate, as the view writes time left.
    static func clock(_ frames: Int64) -> String {
        let seconds = Int64((Double(frames) / Double(rate) * 1_000_000).rounded(.down)) / 1_000_000
        return "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }

    @Test("in and before an open hold the time left counts the closed phases only, with + holds while one is left")
    func openHoldTimeLeft() throws {
        let schedule = try Self.openWimHof()
        let openIndexes = schedule.phases.indices.filter { schedule.phases[$0].isOpen }
        try #require(openIndexes.count >= 2)
        let closedFrames = { (from: Int) in schedule.phases[from...].filter { !$0.isOpen }.reduce(Int64(0)) { $0 + $1.frameCount } }

        // Ten seconds into the first open hold.
        let hold = schedule.phases[openIndexes[0]]
        let frame = hold.startFrame + Int64(10 * Self.rate)
        let inHold = Self.status(schedule, frame: frame, held: Int64(10 * Self.rate))
        let wanted = "\(Self.clock(closedFrames(openIndexes[0] + 1))) left + holds"
        #expect(inHold[3].contains(wanted), "want \(wanted): \(inHold)")
        #expect(inHold[1].contains("held 0:10"), "\(inHold)")
        // What the maximum would have said: the hold's 4:50 still to come and more.
        let atMaximum = Self.clock(schedule.totalFrames - frame)
        #expect(!inHold[3].contains(atMaximum + " left"), "\(inHold)")

        // At the start: the lead breathing, then every hold counted as nothing.
        #expect(Self.status(schedule, frame: 0)[3].contains("\(Self.clock(closedFrames(0))) left + holds"))

        // After the last open hold, no hold is left and the time is exact.
        let lastHold = schedule.phases[openIndexes[openIndexes.count - 1]]
        let after = schedule.phaseIndex(containing: lastHold.endFrame)
        let afterLines = Self.status(schedule, frame: lastHold.endFrame)
        #expect(afterLines[3].contains("\(Self.clock(closedFrames(after))) left"), "\(afterLines)")
        #expect(!afterLines[3].contains("holds"), "\(afterLines)")
    }

    @Test("without a terminal, play prints a get-ready line before the first phase and an ending line after the last")
    func linesThroughPlay() throws {
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = folder.appendingPathComponent("capture.raw").path
        let played = try NagiProcess.run(["play", "box", "--cycles", "1", "--countdown", "3", "--end-bell", "--rate", "8000", "--channels", "1", "--device", "file:'\(capture)',raw"], in: folder)
        #expect(played.status == 0, "\(played.standardError)")
        let lines = played.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "get ready: the first breath in 3 s", "\(lines)")
        #expect(lines.count > 1 && lines[1].hasPrefix("0:00  inhale 4 s"), "\(lines)")
        #expect(lines.last == "0:16  ending", "\(lines)")
        #expect(lines.filter { $0.contains("ending") }.count == 1)
    }

    @Test("on a terminal the screen shows GET READY through the countdown and ENDING through the end bell")
    func terminalThroughPlay() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is missing; .ci/run installs it")
        let server = try #require(PulseServer(), "pulseaudio could not start; .ci/run installs it")
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = "nagi-states-\(getpid())"
        let command = "\(server.shellAssignments) '\(NagiProcess.executableURL.path)' play 1-1 --cycles 1 --countdown 3 --end-bell --device pulse 2>'\(folder.path)/stderr.txt'; echo \"exit=$?\" > '\(folder.path)/status.txt'; sleep 30"
        _ = try TerminalViewTests.tmux(["new-session", "-d", "-s", session, "-x", "100", "-y", "20", command])
        defer { _ = try? TerminalViewTests.tmux(["kill-session", "-t", session]) }
        let ready = try TerminalViewTests.waitForScreen(session, containing: "GET READY", seconds: 15)
        #expect(ready.contains("GET READY"), "\(ready)")
        #expect(!ready.contains("INHALE"), "\(ready)")
        let inhale = try TerminalViewTests.waitForScreen(session, containing: "INHALE", seconds: 10)
        #expect(inhale.contains("INHALE"), "\(inhale)")
        let ending = try TerminalViewTests.waitForScreen(session, containing: "ENDING", seconds: 10)
        #expect(ending.contains("ENDING"), "\(ending)")
        #expect(!ending.contains("EXHALE"), "\(ending)")
        let status = PlayViewWidthTests.waitForFile(folder.path + "/status.txt", seconds: 20)
        #expect(status.contains("exit=0"), "\(status)")
    }

    @Test("Ctrl-C in the one-line view: what was practised starts a line of its own")
    func interruptedOneLineView() throws {
        let server = try #require(PulseServer(), "pulseaudio could not start; .ci/run installs it")
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Four rows: too few for the full view, so the one line redrawn in place, with no newline of its own.
        let run = try TerminalViewTests.interrupt(
            "\(server.shellAssignments) '\(NagiProcess.executableURL.path)' play box --cycles 2 --device pulse", in: folder,
            session: "nagi-compact-\(getpid())", columns: 60, rows: 4, once: "INHALE", thenShowing: "practised")
        #expect(run.status.contains("exit=130"), "\(run.status)")
        #expect(run.line?.hasPrefix("practised 0 breaths") == true, "\(run.screen)")
    }
}
