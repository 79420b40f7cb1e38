import NagiOptions
import NagiKit

/// The one line `render` prints at the end: file, length, size, speed.
enum Summary {
    static func line(path: String, result: SoundtrackWriteReport) -> String {
        let audioMicroseconds = Int64((result.audioSeconds * 1_000_000).rounded())
        return "wrote \(TerminalText.printable(path)): \(Microseconds.formatClock(audioMicroseconds).dropLast(4)), \(byteText(result.byteCount)), \(speedText(result.speedRatio)) real time"
    }

    /// Seconds of wall-clock time since `start`.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// "58.4 MB", "912 kB".
    static func byteText(_ bytes: Int64) -> String {
        if bytes >= 1_000_000 { return "\(Double(Int(Double(bytes) / 100_000)) / 10) MB" }
        if bytes >= 1000 { return "\(bytes / 1000) kB" }
        return "\(bytes) B"
    }

    /// "2950×".
    static func speedText(_ ratio: Double) -> String {
        guard ratio.isFinite else { return "∞×" }
        return "\(Int(ratio.rounded()))×"
    }
}
