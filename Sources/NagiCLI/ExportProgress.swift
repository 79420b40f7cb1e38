import NagiOptions
import FoundationEssentials
import Glibc

/// The course export's progress on standard error: overall and per running track, redrawn in place. Its
/// reports come one at a time from the export's workers (`ParallelRunner` delivers them under its lock).
final class ExportProgress: @unchecked Sendable {
    private let context: CommandContext
    private let enabled: Bool
    private let trackNames: [Int: String]
    private var fractions: [Int: Double] = [:]
    private var finishedCount = 0
    private var lastDrawn = Date.distantPast
    private var drawnLines = 0

    /// `tracks` maps each pending lesson index to its file name; drawn on `context`'s standard error.
    init(context: CommandContext, enabled: Bool, tracks: [Int: String]) {
        self.context = context
        self.enabled = enabled
        trackNames = tracks
    }

    /// A running track's progress.
    func update(trackIndex: Int, fraction: Double) {
        guard enabled else { return }
        fractions[trackIndex] = fraction
        draw()
    }

    /// A track is done (or failed).
    func finished(trackIndex: Int) {
        guard enabled else { return }
        fractions[trackIndex] = nil
        finishedCount += 1
        draw(force: true)
    }

    /// Clears the display.
    func finish() {
        guard enabled else { return }
        clear()
    }

    private func clear() {
        // The cursor's own line first: a Ctrl-C echoed there ("^C") goes with the display.
        var text = "\r\u{1B}[2K"
        for _ in 0..<drawnLines { text += "\u{1B}[1A\u{1B}[2K" }
        context.err(text)
        drawnLines = 0
    }

    private func draw(force: Bool = false) {
        let now = Date()
        guard force || now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
        lastDrawn = now
        clear()
        let total = max(1, trackNames.count)
        let overall = (Double(finishedCount) + fractions.values.reduce(0, +)) / Double(total)
        var lines = ["exporting: \(finishedCount)/\(trackNames.count) tracks, \(Int(overall * 100))%"]
        for (index, fraction) in fractions.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(Int(fraction * 100))%\t\(trackNames[index] ?? "track \(index + 1)")")
        }
        context.err(lines.joined(separator: "\n") + "\n")
        drawnLines = lines.count
    }
}
