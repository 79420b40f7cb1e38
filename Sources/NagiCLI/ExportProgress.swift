import NagiOptions
import FoundationEssentials
import Glibc
import Locking

/// The course export's progress on standard error: overall and per running track, redrawn in place. Its
/// reports come one at a time from the export's workers (`ParallelRunner` delivers them under its lock).
final class ExportProgress: Sendable {
    /// What is drawn, and what was.
    private struct Display: Sendable {
        var fractions: [Int: Double] = [:]
        var finishedCount = 0
        var lastDrawn = Date.distantPast
        var drawnLines = 0
    }

    private let context: CommandContext
    private let enabled: Bool
    private let trackNames: [Int: String]
    private let display = Locked(Display())

    /// `tracks` maps each pending lesson index to its file name; drawn on `context`'s standard error.
    init(context: CommandContext, enabled: Bool, tracks: [Int: String]) {
        self.context = context
        self.enabled = enabled
        trackNames = tracks
    }

    /// A running track's progress.
    func update(trackIndex: Int, fraction: Double) {
        guard enabled else { return }
        display.withLock { display in
            display.fractions[trackIndex] = fraction
            draw(&display)
        }
    }

    /// A track is done (or failed).
    func finished(trackIndex: Int) {
        guard enabled else { return }
        display.withLock { display in
            display.fractions[trackIndex] = nil
            display.finishedCount += 1
            draw(&display, force: true)
        }
    }

    /// Clears the display.
    func finish() {
        guard enabled else { return }
        display.withLock { clear(&$0) }
    }

    private func clear(_ display: inout Display) {
        // The cursor's own line first: a Ctrl-C echoed there ("^C") goes with the display.
        var text = "\r\u{1B}[2K"
        for _ in 0..<display.drawnLines { text += "\u{1B}[1A\u{1B}[2K" }
        context.err(text)
        display.drawnLines = 0
    }

    private func draw(_ display: inout Display, force: Bool = false) {
        let now = Date()
        guard force || now.timeIntervalSince(display.lastDrawn) >= 0.1 else { return }
        display.lastDrawn = now
        clear(&display)
        let total = max(1, trackNames.count)
        let overall = (Double(display.finishedCount) + display.fractions.values.reduce(0, +)) / Double(total)
        var lines = ["exporting: \(display.finishedCount)/\(trackNames.count) tracks, \(Int(overall * 100))%"]
        for (index, fraction) in display.fractions.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(Int(fraction * 100))%\t\(trackNames[index] ?? "track \(index + 1)")")
        }
        context.err(lines.joined(separator: "\n") + "\n")
        display.drawnLines = lines.count
    }
}
