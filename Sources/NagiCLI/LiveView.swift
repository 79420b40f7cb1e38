import NagiOptions
import Breath
import FoundationEssentials
import Glibc
import LiveAudio
import NagiLive
import NagiDocuments

/// What the listener sees while playing: the phase now heard, a countdown, a bar that rises and falls
/// with the horizon level, and the session's progress. It follows the heard frame, not the computed one.
final class LiveView {
    enum Mode {
        /// A redrawn view on a terminal.
        case terminal
        /// One line per phase change (no terminal).
        case lines
        /// Nothing (`--quiet`).
        case silent
    }

    private let schedule: Schedule
    private let title: String
    private let mode: Mode
    private var phaseIndex = 0
    private var announcedPhase = -1
    private var lastDrawn = Date.distantPast
    private var drawnLines = 0
    private var drawnColumns = 0
    /// Whether the last draw was the one-line view (no newline after it, so the next overwrites it in place).
    private var drawnCompact = false
    private var wasPaused = false
    /// The listener's volume, shown on the status line (set by the player before each update).
    var volumeDecibels: Double?
    /// Frames held so far in an open hold, shown instead of a countdown (set by the player before each update).
    var heldFrameCount: Int64?
    /// The volume drawn last, so a change is drawn at once.
    private var drawnVolume: Double?

    init(schedule: Schedule, title: String, mode: Mode) {
        self.schedule = schedule
        self.title = title
        self.mode = mode
    }

    /// Called by the write loop after each block.
    func update(_ progress: PlaybackProgress) {
        guard mode != .silent, !schedule.phases.isEmpty else { return }
        // Before frame 0 is a countdown's lead-in, from `totalFrames` on the ending (the release, an end bell):
        // the view says so rather than showing the first or the last phase frozen.
        let frame = min(progress.heardFrame, schedule.totalFrames)
        phaseIndex = schedule.phaseIndex(containing: min(max(0, frame), schedule.totalFrames - 1))
        switch mode {
        case .lines:
            if frame < 0, announcedPhase == -1 {
                announcedPhase = -2
                Console.out("get ready: the first breath in \(Self.countdownSeconds(frame: frame, rate: schedule.sampleRate)) s\n")
            } else if frame >= schedule.totalFrames, announcedPhase != schedule.phases.count {
                announcedPhase = schedule.phases.count
                Console.out("\(Microseconds.formatClock(schedule.totalMicroseconds).dropLast(4))  ending\n")
            } else if frame >= 0, phaseIndex != announcedPhase, frame < schedule.totalFrames {
                announcedPhase = phaseIndex
                let phase = schedule.phases[phaseIndex]
                let length = phase.isOpen ? "open, up to \(Microseconds.formatSeconds(phase.durationMicroseconds)) s" : "\(Microseconds.formatSeconds(phase.durationMicroseconds)) s"
                Console.out("\(Microseconds.formatClock(phase.startMicroseconds).dropLast(4))  \(phase.kind.displayName) \(length) (breath \(phase.cycleIndex + 1) of \(schedule.cycleCount))\n")
            }
        case .terminal:
            let now = Date()
            guard now.timeIntervalSince(lastDrawn) >= 0.05 || progress.isPaused != wasPaused || volumeDecibels != drawnVolume else { return }
            lastDrawn = now
            drawnVolume = volumeDecibels
            wasPaused = progress.isPaused
            draw(frame: frame, isPaused: progress.isPaused)
        case .silent:
            break
        }
    }

    /// How the playback ended, for the last screen.
    enum Ending: Equatable {
        case finished
        /// Stopped by the listener with the key named ("q", "Esc").
        case stoppedEarly(key: String)
    }

    /// Draws the last screen: the full bar when the session played to its end, or where it stopped.
    func finish(heardFrame: Int64, ending: Ending) {
        guard mode == .terminal, !schedule.phases.isEmpty else { return }
        let frame = ending == .finished ? schedule.totalFrames : min(heardFrame, schedule.totalFrames)
        draw(frame: frame, isPaused: false, ending: ending)
        // The one-line view has no newline of its own; what is printed next starts on a line of its own.
        if drawnCompact { Console.out("\n") }
    }

    /// Ends the one-line view's line (it has no newline of its own), so that what is printed next after a signal
    /// (what was practised, the interruption) starts on a line of its own.
    func endLine() {
        guard mode == .terminal, drawnCompact else { return }
        Console.out("\n")
        drawnCompact = false
    }

    /// The columns of the terminal on standard output now (80 when it cannot say).
    ///
    /// Read at every redraw (at most every 50 ms), so a resize (SIGWINCH) is followed within one
    /// redraw without a signal handler.
    static func terminalSize() -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return (80, 24) }
        return (Int(size.ws_col), size.ws_row > 0 ? Int(size.ws_row) : 24)
    }

    /// The full view needs this many columns, and its five lines plus the cursor's this many rows; a smaller
    /// terminal gets one line redrawn in place (more would wrap, or scroll out of the cursor's reach).
    static let minimumColumns = 9
    static let minimumRows = 6

    /// Whether a terminal of this size gets the one-line view.
    static func isCompact(columns: Int, rows: Int) -> Bool {
        columns < minimumColumns || rows < minimumRows
    }

    /// The view's lines for a terminal `columns` wide and `rows` high: each fits in `columns - 1` (so none
    /// wraps), with fewer elements when narrow, and a single line (the phase and its countdown, or how it ended)
    /// on a terminal too small for the full view. Key hints are shown from the start. `volumeDecibels` is shown on
    /// the status line when given; `heldFrameCount` (in an open hold) replaces the countdown by the time held.
    /// A negative `frame` is in a countdown's lead-in (GET READY and the seconds to the first inhale), one at or past
    /// `totalFrames` in the ending (the release and any end bell: ENDING), where `ending` is still nil. The time left
    /// counts an open hold as nothing, with "+ holds" after it while one is still to come or being held.
    static func lines(schedule: Schedule, title: String, frame: Int64, phaseIndex: Int, isPaused: Bool, ending: Ending?, columns: Int, rows: Int = 24, volumeDecibels: Double? = nil, heldFrameCount: Int64? = nil) -> [String] {
        let phase = schedule.phases[phaseIndex]
        if isCompact(columns: columns, rows: rows) {
            let text = status(compact: true, schedule: schedule, frame: frame, phase: phase, isPaused: isPaused, ending: ending, heldFrameCount: heldFrameCount)
            return [columns > 1 ? fitted(text, columns: columns - 1) : ""]
        }
        let usable = max(8, columns - 1)
        let rate = Double(schedule.sampleRate)
        let atEnd = frame >= schedule.totalFrames
        let level = atEnd ? schedule.phases[schedule.phases.count - 1].endLevel : schedule.level(at: max(0, frame), inPhase: phaseIndex)
        let barWidth = max(4, min(40, usable - 2))
        let filled = max(0, min(barWidth, Int((level * Double(barWidth)).rounded())))
        let levelBar = String(repeating: "█", count: filled) + String(repeating: "·", count: barWidth - filled)
        let fraction = atEnd ? 1 : schedule.sessionProgress(at: max(0, frame))
        let left = Self.timeLeft(schedule: schedule, frame: frame, phaseIndex: phaseIndex)
        let leftMicroseconds = Int64(Double(left.frameCount) / rate * 1_000_000)
        let breathText = "breath \(phase.cycleIndex + 1)/\(schedule.cycleCount)"
        let leftText = "\(Microseconds.formatClock(leftMicroseconds).dropLast(4)) left" + (left.hasOpenHolds ? " + holds" : "")
        // The progress line loses its words before its bar gets too short to read.
        var progressWords = " \(breathText) · \(leftText)"
        if usable - 2 - progressWords.count < 10 { progressWords = " \(phase.cycleIndex + 1)/\(schedule.cycleCount)" }
        let progressWidth = max(4, min(30, usable - 2 - progressWords.count))
        let done = max(0, min(progressWidth, Int(fraction * Double(progressWidth))))
        let progressBar = String(repeating: "━", count: done) + String(repeating: "─", count: progressWidth - done)

        let hints: String
        switch ending {
        case .finished?:
            hints = "  the session is complete"
        case let .stoppedEarly(key)?:
            hints = "  ended with \(key) before the end"
        case nil:
            let pause = isPaused ? "space resumes" : "space pauses"
            if heldFrameCount != nil && !isPaused {
                hints = usable >= 58 ? "  enter breathes in · \(pause) · +/- volume · q or Esc ends"
                    : usable >= 36 ? "  enter breathes in · \(pause) · q ends" : "  enter: in  space: pause  q: end"
            } else {
                hints = usable >= 58 ? "  \(pause) · +/- volume · n/b skip · q or Esc ends"
                    : usable >= 36 ? "  \(pause) · q or Esc ends" : (isPaused ? "  space: resume  q: end" : "  space: pause  q: end")
            }
        }
        var statusLine = "  " + status(compact: false, schedule: schedule, frame: frame, phase: phase, isPaused: isPaused, ending: ending, heldFrameCount: heldFrameCount)
        if let volumeDecibels, ending == nil, usable >= 36 {
            let volume = "volume \(Self.decibelsText(volumeDecibels)) dB"
            let gap = max(2, min(usable, 40) - statusLine.count - volume.count)
            statusLine += String(repeating: " ", count: gap) + volume
        }
        let lines = [TerminalText.printable(title), statusLine, "  " + levelBar, "  " + progressBar + progressWords, hints]
        return lines.map { fitted($0, columns: usable) }
    }

    /// What the session is doing, in capitals, for either layout: the compact one's words are shorter and single
    /// spaced ("GET READY 3 s", "STOPPED"), the full one's double spaced ("GET READY  3 s", "STOPPED EARLY",
    /// "HOLD  held 0:12").
    static func status(compact: Bool, schedule: Schedule, frame: Int64, phase: ScheduledPhase, isPaused: Bool, ending: Ending?, heldFrameCount: Int64?) -> String {
        let gap = compact ? " " : "  "
        switch ending {
        case .finished?: return "DONE"
        case .stoppedEarly?: return compact ? "STOPPED" : "STOPPED EARLY"
        case nil: break
        }
        if isPaused { return "PAUSED" }
        if frame < 0 { return "GET READY\(gap)\(countdownSeconds(frame: frame, rate: schedule.sampleRate)) s" }
        if frame >= schedule.totalFrames { return "ENDING" }
        let word = phase.kind.displayName.uppercased()
        if let held = heldFrameCount { return word + gap + (compact ? "" : "held ") + clock(frames: held, rate: schedule.sampleRate) }
        let seconds = max(0, Double(phase.endFrame - frame) / Double(schedule.sampleRate))
        return "\(word)\(gap)\(Int(seconds.rounded(.up))) s"
    }

    /// Whole seconds (rounded up) until frame 0, the first inhale, from `frame` in a countdown's lead-in.
    static func countdownSeconds(frame: Int64, rate: Int) -> Int {
        Int((Double(-frame) / Double(rate)).rounded(.up))
    }

    /// The frames left from `frame` (negative in a countdown's lead-in) to the end of the breathing, with every open
    /// hold still to come (the one held now too) counted as nothing: it lasts until enter, and its 5-minute maximum is
    /// not what the listener will spend. `hasOpenHolds` says whether such a hold is left, so the time is a least.
    static func timeLeft(schedule: Schedule, frame: Int64, phaseIndex: Int) -> (frameCount: Int64, hasOpenHolds: Bool) {
        guard frame < schedule.totalFrames else { return (0, false) }
        let phases = schedule.phases
        var frameCount: Int64 = 0
        var hasOpenHolds = false
        for index in phaseIndex..<phases.count {
            let phase = phases[index]
            if phase.isOpen {
                hasOpenHolds = true
                continue
            }
            frameCount += index == phaseIndex ? phase.endFrame - max(frame, phase.startFrame) : phase.frameCount
        }
        // The countdown's lead-in still to come.
        if frame < 0 { frameCount += -frame }
        return (frameCount, hasOpenHolds)
    }

    /// "1:05": minutes and seconds of `frames`.
    static func clock(frames: Int64, rate: Int) -> String {
        let seconds = max(0, frames) / Int64(rate)
        return "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }

    /// "+4", "0", "-12": a volume in whole or half decibels with its sign.
    static func decibelsText(_ decibels: Double) -> String {
        let rounded = (decibels * 10).rounded() / 10
        let whole = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return rounded > 0 ? "+" + whole : whole
    }

    /// `line` cut to `columns` characters, with "…" where it was cut.
    static func fitted(_ line: String, columns: Int) -> String {
        guard line.count > columns else { return line }
        return String(line.prefix(max(0, columns - 1))) + "…"
    }

    private func draw(frame: Int64, isPaused: Bool, ending: Ending? = nil) {
        let (columns, rows) = Self.terminalSize()
        let lines = Self.lines(schedule: schedule, title: title, frame: frame, phaseIndex: schedule.phaseIndex(containing: min(max(0, frame), max(0, schedule.totalFrames - 1))), isPaused: isPaused, ending: ending, columns: columns, rows: rows, volumeDecibels: volumeDecibels, heldFrameCount: heldFrameCount)
        let compact = Self.isCompact(columns: columns, rows: rows)
        if compact {
            // Overwritten in place: no newline, so nothing scrolls and nothing wraps.
            Console.out((drawnLines > 0 ? "\u{1B}[H\u{1B}[2J" : "") + "\r\u{1B}[2K" + (lines.first ?? ""))
            drawnLines = 0
            drawnColumns = columns
            drawnCompact = true
            return
        }
        var text: String
        if drawnCompact {
            // From the one-line view: leave its line and start the full view under it.
            text = "\n"
            drawnCompact = false
        } else if columns != drawnColumns, drawnLines > 0 {
            // After a resize the terminal may have rewrapped the old lines: clear rather than count them.
            text = "\u{1B}[H\u{1B}[2J"
        } else {
            text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        }
        for line in lines { text += "\r\u{1B}[2K" + line + "\n" }
        Console.out(text)
        drawnLines = lines.count
        drawnColumns = columns
    }

    /// "practised 12 breaths in 3:48" (with underruns if any); "stopped early: practised 2 breaths in
    /// 0:24 of 5:00" when the listener ended it. After a skip or an open hold ended early, the session's place is
    /// not the time practised: `breaths` and `playedFrameCount` (the frames heard) are given then.
    func practisedLine(heardFrame: Int64, underrunCount: Int, stoppedEarly: Bool = false, breaths counted: Int? = nil, playedFrameCount: Int64? = nil) -> String {
        let frame = min(playedFrameCount ?? heardFrame, playedFrameCount == nil ? schedule.totalFrames : Int64.max)
        var breaths = 0
        if let counted {
            breaths = counted
        } else if frame >= schedule.totalFrames {
            breaths = schedule.cycleCount
        } else if !schedule.phases.isEmpty {
            // Completed cycles: those whose last phase ended at or before the heard frame.
            let index = schedule.phaseIndex(containing: frame)
            breaths = schedule.phases[index].cycleIndex
        }
        let microseconds = frame * 1_000_000 / Int64(schedule.sampleRate)
        var line = "practised \(NumberText.count(breaths, "breath")) in \(Microseconds.formatClock(microseconds).dropLast(4))"
        if stoppedEarly {
            line = "stopped early: " + line + " of \(Microseconds.formatClock(schedule.totalMicroseconds).dropLast(4))"
        }
        if underrunCount > 0 { line += " (\(underrunCount) underrun\(underrunCount == 1 ? "" : "s") recovered)" }
        return line
    }
}
