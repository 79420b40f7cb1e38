import Breath

/// The one line `render` prints at the end: file, length, size, speed.
enum Summary {
    static func line(path: String, result: SoundtrackJob.Result) -> String {
        let audioMicroseconds = Int64((result.audioSeconds * 1_000_000).rounded())
        return "wrote \(path): \(Microseconds.formatClock(audioMicroseconds).dropLast(4)), \(byteText(result.byteCount)), \(speedText(result.speedRatio)) real time"
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
