/// Reads RR intervals from the text files heart-rate apps export.
///
/// Accepted layouts (comments starting `#` or `//` and blank lines are skipped anywhere):
/// - one number per line (Elite HRV's export): milliseconds, or seconds when every value is below 10;
/// - two whitespace-separated numbers per line, time and RR (Kubios' RR text), same unit rule for the RR; the
///   time (seconds, each beat's end) places the beats when it increases throughout;
/// - CSV with a header naming an RR or IBI column, separated by `;`, tab or `,` (Polar Sensor Logger's
///   `Phone timestamp;RR-interval [ms]`, HRV Logger's CSV); a unit in the header (`[ms]`, `(s)`, `_ms`)
///   is taken, else the rule above; a timestamp column, when there is one, places every beat on a clock
///   (ISO 8601, a time of day on a 24- or 12-hour clock, or epoch milliseconds; times of day crossing midnight
///   run on into the next day). Separated by `;` or tab, a decimal comma is read as a point ("812,5").
/// `column` (counted from 1) picks the RR column of a CSV, or of headerless lines with several values.
public enum RRParser {
    /// The longest line a record may hold, in bytes: lines of real records are under 100.
    public static let lineLengthLimit = 4096
    /// The most beats a record may hold: 48 hours at 70 beats a minute.
    public static let beatLimit = 200_000

    /// Parses the bytes of a whole file; `name` is how messages refer to it.
    public static func parse(_ bytes: [UInt8], name: String, column: Int? = nil) throws(HeartRhythmError) -> RRRecord {
        let lines = try splitLines(bytes, name: name)
        var rows: [(number: Int, text: Substring)] = []
        rows.reserveCapacity(lines.count)
        for (number, line) in lines {
            let trimmed = trim(line)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix("//") { continue }
            rows.append((number, trimmed))
        }
        guard let first = rows.first else { throw .badData("\(name): no RR intervals in the file") }
        guard rows.count <= beatLimit + 1 else { throw tooLong(name: name) }
        let record = isEmpaticaHeader(first.text)
            ? try parseEmpatica(header: first, rows: rows.dropFirst(), name: name)
            : isHeader(first.text)
            ? try parseTable(header: first, rows: rows.dropFirst(), name: name, column: column)
            : try parseColumns(rows[...], name: name, column: column)
        guard record.intervalsMilliseconds.count <= beatLimit else { throw tooLong(name: name) }
        return record
    }

    static func tooLong(name: String) -> HeartRhythmError {
        .badData("\(name): more than \(beatLimit) beats, the most a record may hold (48 hours at 70 a minute); cut the record to the session")
    }

    // MARK: - Layouts

    /// Headerless numbers: one column (RR) or two (time, RR).
    static func parseColumns(_ rows: ArraySlice<(number: Int, text: Substring)>, name: String, column: Int?) throws(HeartRhythmError) -> RRRecord {
        var values: [(line: Int, value: Double)] = []
        values.reserveCapacity(rows.count)
        var columnCount: Int?
        var times: [Double?] = []
        for row in rows {
            if let value = thousandsValue(row.text) {
                // "1,024" alone on a line is one number written with a thousands separator, not time and RR.
                guard columnCount == nil || columnCount == 1 else {
                    throw .badData("\(name): line \(row.number) has one value where the lines before have \(columnCount ?? 0)")
                }
                columnCount = 1
                values.append((row.number, value))
                continue
            }
            let cells = row.text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ";" || $0 == "," })
            guard cells.count == 1 || cells.count == 2 || column != nil else {
                throw .badData("\(name): line \(row.number) has \(cells.count) values; expected one RR interval per line, or time and RR (or give --column)")
            }
            if let expected = columnCount, expected != cells.count {
                throw .badData("\(name): line \(row.number) has \(cells.count) values where the lines before have \(expected)")
            }
            columnCount = cells.count
            let index = column.map { $0 - 1 } ?? cells.count - 1
            guard index < cells.count else {
                throw .badData("\(name): line \(row.number) has \(cells.count) values, no column \(index + 1)")
            }
            values.append((row.number, try number(cells[index], line: row.number, name: name)))
            if cells.count == 2, column == nil { times.append(Double(cells[0])) }
        }
        let (milliseconds, unit) = try toMilliseconds(values, declared: nil, name: name)
        let layout = columnCount == 2 ? "time and RR per line" : "one RR interval per line"
        // Kubios' time column is each beat's end in seconds: where beats were lost it jumps ahead of the intervals.
        var beatSeconds: [Double]?
        let stamps = times.compactMap { $0 }
        if stamps.count == milliseconds.count, let first = stamps.first, let last = stamps.last, zip(stamps, stamps.dropFirst()).allSatisfy({ $0 < $1 }) {
            // Seconds, or milliseconds when the times span about a thousand times the intervals' sum; lost beats
            // only lengthen the span, so one much shorter than the intervals is not a time column, nor are beat
            // numbers (1, 2, 3…).
            let summed = milliseconds.dropFirst().reduce(0, +) / 1000
            let scale = last - first > 300 * summed ? 0.001 : 1
            let counts = zip(stamps, stamps.dropFirst()).allSatisfy { $1 - $0 == 1 && $0 == $0.rounded() }
            if !counts, (last - first) * scale >= 0.9 * summed {
                beatSeconds = stamps.map { ($0 - first) * scale + milliseconds[0] / 1000 }
            }
        }
        return RRRecord(intervalsMilliseconds: milliseconds, beatSeconds: beatSeconds, formatDescription: "\(layout), \(unit)")
    }

    /// A CSV table with a header row.
    static func parseTable(header: (number: Int, text: Substring), rows: ArraySlice<(number: Int, text: Substring)>, name: String, column: Int?) throws(HeartRhythmError) -> RRRecord {
        let separator: Character = header.text.contains(";") ? ";" : header.text.contains("\t") ? "\t" : ","
        let names = splitCells(header.text, separator: separator).map { trim($0).lowercased() }
        let rrColumn: Int
        if let column {
            guard (1...names.count).contains(column) else {
                throw .usage("--column \(column): the header on line \(header.number) has \(names.count) columns")
            }
            rrColumn = column - 1
        } else if let found = names.firstIndex(where: isIntervalColumn) {
            rrColumn = found
        } else {
            let listed = names.map { "'\($0)'" }.joined(separator: ", ")
            throw .badData("\(name): no RR or IBI column in the header on line \(header.number) (columns: \(listed)); give --column N to pick one")
        }
        let timeColumn = names.indices.first { index in index != rrColumn && ["time", "date", "stamp", "zeit"].contains { names[index].contains($0) } }
        // A one-column file's line is its cell, "1,024" included (the line's quotes are trimmed with it).
        let table = rows.map { row in
            (number: row.number, cells: names.count == 1 && thousandsValue(row.text) != nil ? [row.text] : splitCells(row.text, separator: separator))
        }
        // A comma inside a cell is a thousands separator ("1,024" quoted in a comma-separated file, or in a ; or tab
        // file whose column is in milliseconds) or else, where ; or tab separates, a decimal comma ("812,5").
        let commaCells = table.compactMap { rrColumn < $0.cells.count ? trim($0.cells[rrColumn]) : nil }.filter { $0.contains(",") }
        let plainLarge = table.contains { row in rrColumn < row.cells.count && !row.cells[rrColumn].contains(",") && (Double(trim(row.cells[rrColumn])) ?? 0) >= 10 }
        let commaIsThousands = separator == "," || (!commaCells.isEmpty && commaCells.allSatisfy { thousandsValue($0) != nil }
            && (declaredUnit(names[rrColumn]) == 1 || plainLarge))
        var values: [(line: Int, value: Double)] = []
        values.reserveCapacity(rows.count)
        var clocks: [ClockTime?] = []
        clocks.reserveCapacity(rows.count)
        for row in table {
            let cells = row.cells
            guard rrColumn < cells.count else {
                throw .badData("\(name): line \(row.number) has no '\(names[rrColumn])' value (\(cells.count) of \(names.count) columns)")
            }
            var cell = trim(cells[rrColumn])
            if cell.isEmpty { continue }
            if separator == ",", cells.count > names.count, rrColumn + 1 < cells.count, thousandsValue(Substring(cell + "," + trim(cells[rrColumn + 1]))) != nil {
                throw .badData("\(name): line \(row.number): '\(printable(cell)),\(printable(trim(cells[rrColumn + 1])))' is a number with a thousands separator in a comma-separated file, where the comma parts the cells; export without separators or quote the values")
            }
            if cell.contains(",") {
                if commaIsThousands, let value = thousandsValue(cell) {
                    values.append((row.number, value))
                    appendClock(cells, into: &clocks, timeColumn: timeColumn)
                    continue
                }
                guard separator != "," else {
                    throw .badData("\(name): line \(row.number): '\(printable(cell))' is not a number (a comma that is no thousands separator)")
                }
                cell = Substring(String(cell.map { $0 == "," ? "." : $0 }))
            }
            values.append((row.number, try number(cell, line: row.number, name: name)))
            appendClock(cells, into: &clocks, timeColumn: timeColumn)
        }
        let (milliseconds, unit) = try toMilliseconds(values, declared: declaredUnit(names[rrColumn]), name: name)
        // Apps stamp a beat when it arrives, at the end of its interval.
        let firstClock = clocks.first { $0 != nil } ?? nil
        let start = firstClock.map { $0.adding(seconds: -(milliseconds.first ?? 0) / 1000) }
        var beatSeconds: [Double]?
        if let origin = clocks.first ?? nil, clocks.allSatisfy({ $0 != nil }) {
            // Each beat's end, seconds after the first beat began; a time of day that falls back by more than
            // half a day has crossed midnight.
            var seconds: [Double] = []
            seconds.reserveCapacity(clocks.count)
            var days = 0.0
            var previous = -Double.infinity
            let first = milliseconds[0] / 1000
            for clock in clocks {
                guard let clock else { continue }
                var value = clock.seconds(since: origin)
                if !clock.hasDate {
                    value = (clock.wallSeconds - origin.wallSeconds) + days * 86_400
                    if value < previous - 43_200 {
                        days += 1
                        value += 86_400
                    }
                }
                previous = value
                seconds.append(value + first)
            }
            beatSeconds = seconds
        }
        var label = column != nil ? "CSV column \(rrColumn + 1) '\(names[rrColumn])'" : "CSV column '\(names[rrColumn])'"
        label += ", \(unit)"
        if let stamps = beatSeconds, ReceiveStamps.areReceiveTimes(stamps, intervalsMilliseconds: milliseconds) {
            beatSeconds = ReceiveStamps.place(stamps, intervalsMilliseconds: milliseconds)
            label += "; stamps of the beats' arrival, so the beats are placed by their intervals (anchored to the stamps at the start and after gaps)"
        }
        return RRRecord(intervalsMilliseconds: milliseconds, startClock: start, beatSeconds: beatSeconds, formatDescription: label)
    }

    /// The clock of a row's time cell (nil without one), appended to `clocks`.
    static func appendClock(_ cells: [Substring], into clocks: inout [ClockTime?], timeColumn: Int?) {
        guard let timeColumn, timeColumn < cells.count else {
            clocks.append(nil)
            return
        }
        let text = trim(cells[timeColumn])
        clocks.append(ClockTime.parse(text) ?? ClockTime.parseEpoch(text))
    }

    /// Whether a first line is Empatica E4's `IBI.csv` header: the session's start in Unix seconds, and "IBI".
    static func isEmpaticaHeader(_ text: Substring) -> Bool {
        let cells = text.split(separator: ",", omittingEmptySubsequences: false).map { trim($0) }
        guard cells.count == 2, let start = Double(cells[0]), start > 100_000_000 else { return false }
        return cells[1].lowercased() == "ibi"
    }

    /// Empatica E4's `IBI.csv`: after the header, each beat's end in seconds since the start and its interval in
    /// seconds. The E4 writes only the beats it detected cleanly, so the times jump where it lost them: those
    /// jumps are kept as gaps.
    static func parseEmpatica(header: (number: Int, text: Substring), rows: ArraySlice<(number: Int, text: Substring)>, name: String) throws(HeartRhythmError) -> RRRecord {
        let startUnix = Double(trim(header.text.split(separator: ",")[0])) ?? 0
        var times: [Double] = []
        var values: [(line: Int, value: Double)] = []
        times.reserveCapacity(rows.count)
        values.reserveCapacity(rows.count)
        for row in rows {
            let cells = row.text.split(separator: ",", omittingEmptySubsequences: false).map { trim($0) }
            guard cells.count == 2 else {
                throw .badData("\(name): line \(row.number) has \(cells.count) values; Empatica's IBI.csv has the time and the interval, in seconds")
            }
            let time = try number(cells[0], line: row.number, name: name)
            if let last = times.last, time <= last {
                throw .badData("\(name): line \(row.number): the time \(format(time)) s does not follow \(format(last)) s")
            }
            times.append(time)
            values.append((row.number, try number(cells[1], line: row.number, name: name)))
        }
        let (milliseconds, _) = try toMilliseconds(values, declared: 1000, name: name)
        guard let firstTime = times.first else { throw .badData("\(name): no RR intervals in the file") }
        let first = milliseconds[0] / 1000
        let start = ClockTime(wallSeconds: startUnix + firstTime - first, zoneOffsetSeconds: 0, hasDate: true)
        return RRRecord(
            intervalsMilliseconds: milliseconds, startClock: start, beatSeconds: times.map { $0 - firstTime + first },
            formatDescription: "Empatica E4 IBI.csv, s"
        )
    }

    /// The value of a number written with a thousands separator ("1,024", "12,345.5", quoted or not); nil for
    /// anything else ("812,5", "0,812").
    static func thousandsValue(_ text: Substring) -> Double? {
        let bare = trim(text)
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first else { return nil }
        let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
        guard groups.count >= 2, let lead = groups.first, (1...3).contains(lead.count), lead.first != "0",
              groups.dropFirst().allSatisfy({ $0.count == 3 }), groups.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        let digits = groups.joined() + (parts.count == 2 ? "." + parts[1] : "")
        return Double(digits)
    }

    /// The cells of a CSV line: split at `separator` except inside double quotes (`"1,024"` is one cell).
    static func splitCells(_ text: Substring, separator: Character) -> [Substring] {
        guard text.contains("\"") else { return text.split(separator: separator, omittingEmptySubsequences: false) }
        var cells: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"", quoted || index == start {
                // A quote opens a cell only at its start (the line's own outer quotes are already trimmed).
                quoted.toggle()
            } else if character == separator, !quoted {
                cells.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        cells.append(text[start..<text.endIndex])
        return cells
    }

    /// Whether a header names RR intervals: "rr", "rr-interval [ms]", "rr_ms", "ibi", "inter-beat interval".
    static func isIntervalColumn(_ name: String) -> Bool {
        name.hasPrefix("rr") || name.contains(" rr") || name.contains("ibi") || name.contains("inter-beat") || name.contains("interbeat")
    }

    /// The unit a header declares: "[ms]", "(ms)", "_ms", " ms" or the seconds forms; nil when none.
    static func declaredUnit(_ name: String) -> Double? {
        for suffix in ["[ms]", "(ms)", "_ms", " ms", "-ms"] where name.hasSuffix(suffix) { return 1 }
        for suffix in ["[s]", "(s)", "_s", " s", "[sec]", "(sec)"] where name.hasSuffix(suffix) { return 1000 }
        return nil
    }

    // MARK: - Values

    /// Milliseconds, by the declared unit, or seconds when every value is below 10 and milliseconds when none is.
    static func toMilliseconds(_ values: [(line: Int, value: Double)], declared: Double?, name: String) throws(HeartRhythmError) -> ([Double], String) {
        guard !values.isEmpty else { throw .badData("\(name): no RR intervals in the file") }
        for (line, value) in values where value <= 0 {
            throw .badData("\(name): line \(line): an RR interval of \(format(value)) (intervals are positive)")
        }
        let scale: Double
        if let declared {
            scale = declared
        } else {
            let small = values.first { $0.value < 10 }
            let large = values.first { $0.value >= 10 }
            if let small, let large {
                throw .badData("\(name): mixed units: line \(small.line) reads \(format(small.value)) (seconds?) and line \(large.line) reads \(format(large.value)) (milliseconds?)")
            }
            scale = small != nil ? 1000 : 1
        }
        return (values.map { $0.value * scale }, scale == 1 ? "ms" : "s")
    }

    /// A decimal number: digits with an optional point and exponent; no nan, inf, hex or spaces.
    static func number(_ text: Substring, line: Int, name: String) throws(HeartRhythmError) -> Double {
        let allowed = text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || $0 == 46 || $0 == 45 || $0 == 43 || $0 == 101 || $0 == 69 }
        guard allowed, text.utf8.contains(where: { $0 >= 48 && $0 <= 57 }), let value = Double(text), value.isFinite else {
            throw .badData("\(name): line \(line): '\(printable(text))' is not a number")
        }
        return value
    }

    // MARK: - Text

    /// The file's lines with their numbers (from 1); refuses binary content and overlong lines.
    static func splitLines(_ bytes: [UInt8], name: String) throws(HeartRhythmError) -> [(Int, Substring)] {
        var start = 0
        var lines: [(Int, Substring)] = []
        var number = 1
        var index = 0
        let count = bytes.count
        // Line breaks first, in bytes, so an overlong line is refused before it is decoded.
        var ranges: [Range<Int>] = []
        while index < count {
            let byte = bytes[index]
            if byte == 0 {
                throw .badData("\(name): not a text file (a zero byte at offset \(index)); expected RR intervals as text or CSV")
            }
            if byte == 10 || byte == 13 {
                // Refused before millions of lines are held: twice the beats allows for comments and blank lines.
                guard ranges.count < 2 * beatLimit + 2 else { throw tooLong(name: name) }
                ranges.append(start..<index)
                if byte == 13, index + 1 < count, bytes[index + 1] == 10 { index += 1 }
                start = index + 1
            } else if index - start >= lineLengthLimit {
                throw .badData("\(name): line \(ranges.count + 1) is longer than \(lineLengthLimit) bytes; not an RR record")
            }
            index += 1
        }
        if start < count { ranges.append(start..<count) }
        lines.reserveCapacity(ranges.count)
        for range in ranges {
            guard let text = String(validating: bytes[range], as: UTF8.self) else {
                throw .badData("\(name): line \(number) is not UTF-8 text; expected RR intervals as text or CSV")
            }
            lines.append((number, Substring(number == 1 && text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)))
            number += 1
        }
        return lines
    }

    static func trim(_ text: Substring) -> Substring {
        var result = text
        while let first = result.first, first == " " || first == "\t" || first == "\"" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" || last == "\"" { result = result.dropLast() }
        return result
    }

    /// A header holds a cell that is neither a number nor a clock time ("RR-interval [ms]"; not "1e3").
    static func isHeader(_ text: Substring) -> Bool {
        guard text.contains(where: { $0.isLetter }) else { return false }
        let cells = text.split(whereSeparator: { $0 == ";" || $0 == "," || $0 == "\t" || $0 == " " })
        return cells.contains { cell in Double(trim(cell)) == nil && ClockTime.parse(trim(cell)) == nil }
    }

    /// At most 40 characters, control characters shown as '?', for a message.
    static func printable(_ text: Substring) -> String {
        String(text.prefix(40).map { $0.isASCII && ($0.asciiValue ?? 0) < 32 ? "?" : $0 })
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
