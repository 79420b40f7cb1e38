/// Exact conversions between decimal text, seconds and whole microseconds.
public enum Microseconds {
    /// Microseconds in one second.
    public static let perSecond: Int64 = 1_000_000

    /// The longest session nagi will schedule: 24 hours.
    public static let sessionLimit: Int64 = 24 * 3600 * perSecond

    /// Parses a non-negative decimal number of `unitMicroseconds` ("5.5" seconds, "0.25" minutes) exactly,
    /// with no floating point. Returns nil for anything but ASCII digits with at most one point, for values
    /// finer than a microsecond, and for values above `limit` microseconds.
    public static func parseDecimal(_ text: Substring, unitMicroseconds: Int64, limit: Int64 = sessionLimit) -> Int64? {
        guard !text.isEmpty else { return nil }
        var whole: Int64 = 0
        var fractionDigits: [Int64] = []
        var seenPoint = false
        var seenDigit = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                if seenPoint { return nil }
                seenPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            seenDigit = true
            let digit = Int64(byte - UInt8(ascii: "0"))
            if seenPoint {
                fractionDigits.append(digit)
                if fractionDigits.count > 18 { return nil }
            } else {
                let (shifted, overflow) = whole.multipliedReportingOverflow(by: 10)
                if overflow || shifted > limit { return nil }
                whole = shifted + digit
            }
        }
        guard seenDigit else { return nil }
        // "8." is more likely a typo than a length: a point needs digits after it.
        if seenPoint && fractionDigits.isEmpty { return nil }
        let (wholeMicroseconds, overflow) = whole.multipliedReportingOverflow(by: unitMicroseconds)
        if overflow || wholeMicroseconds > limit { return nil }
        // The fraction times the unit must come out in whole microseconds.
        var numerator: Int64 = 0
        var denominator: Int64 = 1
        for digit in fractionDigits {
            numerator = numerator * 10 + digit
            denominator *= 10
        }
        while numerator % 10 == 0 && denominator > 1 && numerator != 0 {
            numerator /= 10
            denominator /= 10
        }
        if numerator == 0 { denominator = 1 }
        let (scaled, scaledOverflow) = numerator.multipliedReportingOverflow(by: unitMicroseconds)
        if scaledOverflow || scaled % denominator != 0 { return nil }
        let total = wholeMicroseconds + scaled / denominator
        return total > limit ? nil : total
    }

    /// Converts a JSON number of seconds to whole microseconds, or nil if it is negative, not finite,
    /// finer than a microsecond (beyond rounding noise), or above `limit`.
    public static func fromSeconds(_ seconds: Double, unitMicroseconds: Int64 = perSecond, limit: Int64 = sessionLimit) -> Int64? {
        guard seconds.isFinite, seconds >= 0 else { return nil }
        let exact = seconds * Double(unitMicroseconds)
        guard exact <= Double(limit) else { return nil }
        let rounded = exact.rounded()
        // Allow the binary representation's noise (0.1 s is 100000.00000000001 µs), refuse real sub-microsecond detail.
        guard abs(exact - rounded) < 1e-3 else { return nil }
        return Int64(rounded)
    }

    /// Formats microseconds as seconds with as many decimals as needed ("4", "5.5", "0.000001").
    public static func formatSeconds(_ microseconds: Int64) -> String {
        let sign = microseconds < 0 ? "-" : ""
        let magnitude = microseconds.magnitude
        let whole = magnitude / 1_000_000
        var fraction = magnitude % 1_000_000
        if fraction == 0 { return "\(sign)\(whole)" }
        var digits = 6
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let fractionText = String(fraction)
        let padding = String(repeating: "0", count: digits - fractionText.count)
        return "\(sign)\(whole).\(padding)\(fractionText)"
    }

    /// Formats microseconds as a clock reading, "m:ss.mmm" or "h:mm:ss.mmm", rounded to the millisecond.
    public static func formatClock(_ microseconds: Int64) -> String {
        let milliseconds = (microseconds + 500) / 1000
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let seconds = milliseconds / 1000 % 60
        let millis = milliseconds % 1000
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        if hours > 0 {
            return "\(hours):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))"
        }
        return "\(minutes):\(pad(seconds, 2)).\(pad(millis, 3))"
    }
}
