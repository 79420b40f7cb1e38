import Breath
import FoundationEssentials
import Glibc
import LiveAudio

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
    private var wasPaused = false

    init(schedule: Schedule, title: String, mode: Mode) {
        self.schedule = schedule
        self.title = title
        self.mode = mode
    }

    /// Called by the write loop after each block.
    func update(_ progress: PlaybackProgress) {
        guard mode != .silent, !schedule.phases.isEmpty else { return }
        let frame = min(progress.heardFrame, max(0, schedule.totalFrames - 1))
        phaseIndex = schedule.phaseIndex(containing: frame)
        switch mode {
        case .lines:
            if phaseIndex != announcedPhase, progress.heardFrame < schedule.totalFrames {
                announcedPhase = phaseIndex
                let phase = schedule.phases[phaseIndex]
                Console.out("\(Microseconds.formatClock(phase.startMicroseconds).dropLast(4))  \(phase.kind.displayName) \(Microseconds.formatSeconds(phase.durationMicroseconds)) s (breath \(phase.cycleIndex + 1) of \(schedule.cycleCount))\n")
            }
        case .terminal:
            let now = Date()
            guard now.timeIntervalSince(lastDrawn) >= 0.05 || progress.isPaused != wasPaused else { return }
            lastDrawn = now
            wasPaused = progress.isPaused
            draw(frame: frame, isPaused: progress.isPaused)
        case .silent:
            break
        }
    }

    private func draw(frame: Int64, isPaused: Bool) {
        let phase = schedule.phases[phaseIndex]
        let rate = Double(schedule.sampleRate)
        let remainingInPhase = max(0, Double(phase.endFrame - frame) / rate)
        let level = schedule.level(at: frame, inPhase: phaseIndex)
        let width = 40
        let filled = Int((level * Double(width)).rounded())
        let levelBar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let fraction = schedule.sessionProgress(at: frame)
        let progressWidth = 30
        let done = Int(fraction * Double(progressWidth))
        let progressBar = String(repeating: "━", count: done) + String(repeating: "─", count: progressWidth - done)
        let left = Int64(max(0, Double(schedule.totalFrames - frame) / rate) * 1_000_000)
        let phaseWord = phase.kind.displayName.uppercased()
        let lines = [
            "\(title)",
            isPaused ? "  PAUSED — space resumes, q ends" : "  \(phaseWord)  \(Int(remainingInPhase.rounded(.up))) s",
            "  \(levelBar)",
            "  \(progressBar) breath \(phase.cycleIndex + 1)/\(schedule.cycleCount) · \(Microseconds.formatClock(left).dropLast(4)) left",
        ]
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        for line in lines { text += "\r\u{1B}[2K" + line + "\n" }
        Console.out(text)
        drawnLines = lines.count
    }

    /// "practised 12 breaths in 3:48" (with underruns if any).
    func practisedLine(heardFrame: Int64, underrunCount: Int) -> String {
        let frame = min(heardFrame, schedule.totalFrames)
        var breaths = 0
        if frame >= schedule.totalFrames {
            breaths = schedule.cycleCount
        } else if !schedule.phases.isEmpty {
            // Completed cycles: those whose last phase ended at or before the heard frame.
            let index = schedule.phaseIndex(containing: frame)
            breaths = schedule.phases[index].cycleIndex
        }
        let microseconds = frame * 1_000_000 / Int64(schedule.sampleRate)
        var line = "practised \(breaths) breath\(breaths == 1 ? "" : "s") in \(Microseconds.formatClock(microseconds).dropLast(4))"
        if underrunCount > 0 { line += " (\(underrunCount) underrun\(underrunCount == 1 ? "" : "s") recovered)" }
        return line
    }
}
