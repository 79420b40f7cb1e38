import NagiOptions
import FoundationEssentials
import Glibc

/// A one-line progress bar on standard error, redrawn in place; silent when disabled.
final class ProgressBar {
    private let enabled: Bool
    private let label: String
    private let start = Date()
    private var lastDrawn = Date.distantPast
    private var drawn = false

    init(enabled: Bool, label: String) {
        self.enabled = enabled
        self.label = label
    }

    /// Shows `fraction` done, at most ten times a second, and only once the work has run for a second.
    func update(_ fraction: Double) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(start) >= 1, now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
        lastDrawn = now
        drawn = true
        let width = 30
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        Console.err("\r\(bar) \(Int(fraction * 100))% \(label)\u{1B}[K")
    }

    /// Clears the line if anything was drawn.
    func finish() {
        if drawn { Console.err("\r\u{1B}[K") }
    }
}
