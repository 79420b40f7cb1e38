/// Formats numbers for people and for SVG without C's printf.
public enum NumberText {
    /// `value` with exactly `decimals` decimals, rounded half away from zero ("3.14", "-0.5").
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(value) }
        let integer = Int64(scaled)
        let divisor = Int64(scale)
        let sign = value < 0 && integer != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(integer) }
        let fraction = String(integer % divisor)
        return sign + String(integer / divisor) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// "1 track", "3 tracks", "0 tracks": a count with its noun, plural when not one.
    public static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
