/// A moment on a wall clock as records and progress files write it: ISO 8601 date-times with or without a
/// zone ("2026-12-02T07:30:01.250+01:00", "2026-12-02 07:30:01.250"), a time of day alone ("07:30:01"), either
/// on a 12-hour clock ("7:30:01 PM", "2026-12-02 07:30:01.250 am"), or milliseconds since 1970 in UTC
/// ("1796189401250", 13 digits; `parseEpoch`).
public struct ClockTime: Sendable, Equatable {
    /// Seconds since 1970-01-01 00:00 of the fields as written (the local wall clock when a zone is given),
    /// or seconds since midnight for a time of day alone.
    public var wallSeconds: Double
    /// The zone's offset east of UTC in seconds, when the text names one ("Z" is 0).
    public var zoneOffsetSeconds: Int?
    /// Whether the text held a date (a time of day alone compares by its seconds since midnight).
    public var hasDate: Bool

    public init(wallSeconds: Double, zoneOffsetSeconds: Int?, hasDate: Bool) {
        self.wallSeconds = wallSeconds
        self.zoneOffsetSeconds = zoneOffsetSeconds
        self.hasDate = hasDate
    }

    /// Seconds from `origin` to this moment. Two zoned times compare in UTC; otherwise the wall clocks
    /// compare as written (a record without zones is taken to be in the zone of the other time), and a
    /// time of day alone compares with the time of day of `origin`.
    /// A time of day alone is taken within 12 hours either side of `origin`: a record started at 23:58 and a
    /// session at 00:01 are 3 minutes apart, not 23 hours 57 back.
    public func seconds(since origin: ClockTime) -> Double {
        if !hasDate || !origin.hasDate {
            let day = 86_400.0
            let mine = wallSeconds.truncatingRemainder(dividingBy: day)
            let theirs = origin.wallSeconds.truncatingRemainder(dividingBy: day)
            var difference = mine - theirs
            if difference > day / 2 { difference -= day }
            if difference <= -day / 2 { difference += day }
            return difference
        }
        if let offset = zoneOffsetSeconds, let originOffset = origin.zoneOffsetSeconds {
            return (wallSeconds - Double(offset)) - (origin.wallSeconds - Double(originOffset))
        }
        return wallSeconds - origin.wallSeconds
    }

    /// The moment `seconds` after this one, on the same clock.
    public func adding(seconds: Double) -> ClockTime {
        ClockTime(wallSeconds: wallSeconds + seconds, zoneOffsetSeconds: zoneOffsetSeconds, hasDate: hasDate)
    }

    /// Milliseconds since 1970-01-01 UTC written as 13 digits (as Polar and Android apps stamp beats); nil for
    /// anything else.
    public static func parseEpoch(_ text: Substring) -> ClockTime? {
        guard text.utf8.count == 13, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let milliseconds = Int64(text) else { return nil }
        return ClockTime(wallSeconds: Double(milliseconds) / 1000, zoneOffsetSeconds: 0, hasDate: true)
    }

    /// Parses `text`; nil when it is not a date-time or time of day in one of the accepted shapes.
    public static func parse(_ text: Substring) -> ClockTime? {
        var bytes = Array(text.utf8)
        // A 12-hour clock: " AM" or " PM" (any case, the space optional) at the end.
        var meridiem: UInt8?
        if bytes.count >= 2, bytes[bytes.count - 1] | 0x20 == UInt8(ascii: "m"), [UInt8(ascii: "a"), UInt8(ascii: "p")].contains(bytes[bytes.count - 2] | 0x20) {
            meridiem = bytes[bytes.count - 2] | 0x20
            bytes.removeLast(2)
            if bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        }
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + count)] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        var daySeconds = 0.0
        var hasDate = false
        if bytes.count >= 10, bytes[4] == UInt8(ascii: "-") {
            guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")), let day = digits(2),
                  (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day) else { return nil }
            daySeconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86_400
            hasDate = true
            guard expect(UInt8(ascii: "T")) || expect(UInt8(ascii: " ")) else { return nil }
        }
        // A 12-hour clock may write the hour with one digit ("7:30:01 PM").
        let oneDigitHour = meridiem != nil && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: ":")
        guard var hour = digits(oneDigitHour ? 1 : 2), expect(UInt8(ascii: ":")), let minute = digits(2), hour < 24, minute < 60 else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == UInt8(ascii: "p") ? 12 : 0)
        }
        var second = 0.0
        if expect(UInt8(ascii: ":")) {
            guard let whole = digits(2), whole < 61 else { return nil }
            second = Double(whole)
            if expect(UInt8(ascii: ".")) || expect(UInt8(ascii: ",")) {
                var scale = 0.1
                let start = index
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                    second += Double(bytes[index] - 48) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start else { return nil }
            }
        }
        var zone: Int?
        if expect(UInt8(ascii: "Z")) {
            zone = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let zoneHour = digits(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            guard let zoneMinute = digits(2), zoneHour < 24, zoneMinute < 60 else { return nil }
            zone = sign * (zoneHour * 3600 + zoneMinute * 60)
        }
        guard index == bytes.count else { return nil }
        return ClockTime(wallSeconds: daySeconds + Double(hour * 3600 + minute * 60) + second, zoneOffsetSeconds: zone, hasDate: hasDate)
    }

    /// The days of `month` (1–12) in `year` of the proleptic Gregorian calendar.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Why `text`, shaped as a date-time, names no day that exists ("2025-02-30 does not exist: February 2025 has
    /// 28 days"); nil when its date exists or it is not shaped as one.
    public static func nonexistentDateReason(_ text: Substring) -> String? {
        let bytes = Array(text.utf8.prefix(10))
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = Int(String(decoding: bytes[0..<4], as: UTF8.self)), let month = Int(String(decoding: bytes[5..<7], as: UTF8.self)),
              let day = Int(String(decoding: bytes[8..<10], as: UTF8.self)) else { return nil }
        let date = String(decoding: bytes, as: UTF8.self)
        guard (1...12).contains(month) else { return "\(date) does not exist: there is no month \(month)" }
        let days = daysInMonth(year: year, month: month)
        guard (1...days).contains(day) else {
            let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
            return "\(date) does not exist: \(names[month - 1]) \(year) has \(days) days"
        }
        return nil
    }

    /// The moment as ISO 8601 with milliseconds and its zone ("2026-12-02T08:30:01.250+01:00"; no zone when
    /// it has none; the time alone for a time of day).
    public var isoText: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let milliseconds = Int((wallSeconds * 1000).rounded(.down))
        let days = Int((Double(milliseconds) / 86_400_000).rounded(.down))
        let inDay = milliseconds - days * 86_400_000
        var text = ""
        if hasDate {
            let (year, month, day) = Self.civil(fromDays: days)
            text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
        }
        text += "\(pad(inDay / 3_600_000, 2)):\(pad(inDay / 60_000 % 60, 2)):\(pad(inDay / 1000 % 60, 2)).\(pad(inDay % 1000, 3))"
        if let zone = zoneOffsetSeconds {
            if zone == 0 { return text + "Z" }
            let minutes = abs(zone) / 60
            text += (zone < 0 ? "-" : "+") + "\(pad(minutes / 60, 2)):\(pad(minutes % 60, 2))"
        }
        return text
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's civil_from_days).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
