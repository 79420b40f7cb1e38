import Foundation
import HeartRhythm
import Testing

/// Each supported layout read from a fixture written for it, and hostile input refused with one line.
@Suite("RR record parsing")
struct RRParserTests {
    /// The intervals every fixture holds, in ms.
    static let intervals: [Double] = [812, 845, 901, 934, 880, 842, 815, 799, 828, 870, 915, 948, 902, 861, 830, 806, 822, 868, 917, 940]

    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil))
        return Array(try Data(contentsOf: url))
    }

    static func parse(_ text: String) throws(HeartRhythmError) -> RRRecord {
        try RRParser.parse(Array(text.utf8), name: "rr.txt")
    }

    static func message(_ bytes: [UInt8]) -> String? {
        do {
            _ = try RRParser.parse(bytes, name: "rr.txt")
            return nil
        } catch {
            #expect(error.category == .badData)
            #expect(!error.message.contains("\n"))
            return error.message
        }
    }

    @Test("each format's fixture reads as the same 20 intervals", arguments: [
        ("elite-hrv.txt", "one RR interval per line, ms"),
        ("seconds-with-comments.txt", "one RR interval per line, s"),
        ("kubios-rr.txt", "time and RR per line, s"),
        ("polar-sensor-logger.txt", "CSV column 'rr-interval [ms]', ms"),
        ("hrv-logger.csv", "CSV column 'rr (ms)', ms"),
    ])
    func readsFixture(name: String, layout: String) throws {
        let record = try RRParser.parse(try Self.fixture(name), name: name)
        #expect(record.intervalsMilliseconds.count == Self.intervals.count)
        for (read, expected) in zip(record.intervalsMilliseconds, Self.intervals) {
            #expect(abs(read - expected) < 1e-9, "\(name): \(read) for \(expected)")
        }
        #expect(record.formatDescription == layout)
    }

    @Test("timestamps place the record on a clock: the first beat began one interval before its stamp")
    func readsClock() throws {
        for name in ["polar-sensor-logger.txt", "hrv-logger.csv"] {
            let record = try RRParser.parse(try Self.fixture(name), name: name)
            let start = try #require(record.startClock)
            let session = try #require(ClockTime.parse("2026-12-02T07:30:10.500"))
            #expect(abs(session.seconds(since: start) - 10.5) < 1e-6, "\(name)")
        }
        #expect(try RRParser.parse(try Self.fixture("elite-hrv.txt"), name: "e").startClock == nil)
        // Zoned times compare in UTC; a time of day alone by the clock.
        let zoned = try #require(ClockTime.parse("2026-12-02T08:30:00.250+01:00"))
        let utc = try #require(ClockTime.parse("2026-12-02T07:29:00Z"))
        #expect(abs(zoned.seconds(since: utc) - 60.25) < 1e-9)
        #expect(abs(try #require(ClockTime.parse("07:31:00")).seconds(since: utc) - 120) < 1e-9)
        #expect(ClockTime.parse("2026-13-02T07:30:00") == nil)
        #expect(ClockTime.parse("7:30") == nil)
    }

    @Test("a CSV without an RR or IBI column names the columns it has")
    func refusesTableWithoutInterval() {
        let message = Self.message(Array("time;hr\n2026-12-02T07:30:00;71\n".utf8))
        #expect(message == "rr.txt: no RR or IBI column in the header on line 1 (columns: 'time', 'hr'); give --column N to pick one")
    }

    @Test("hostile input: binary, a 50 MB line, negative, NaN, infinity, mixed units, nothing at all")
    func refusesHostileInput() throws {
        var binary = Array("812\n845\n".utf8)
        binary += [0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02]
        #expect(Self.message(binary) == "rr.txt: not a text file (a zero byte at offset 12); expected RR intervals as text or CSV")
        #expect(Self.message([0xff, 0xfe, 0x38, 0x31, 0x32, 0x0a])?.contains("line 1 is not UTF-8 text") == true)
        let longLine = Array("812\n".utf8) + [UInt8](repeating: UInt8(ascii: "9"), count: 50 << 20)
        #expect(Self.message(longLine) == "rr.txt: line 2 is longer than 4096 bytes; not an RR record")
        #expect(Self.message(Array("812\n-845\n901\n".utf8)) == "rr.txt: line 2: an RR interval of -845 (intervals are positive)")
        #expect(Self.message(Array("812\n0\n".utf8)) == "rr.txt: line 2: an RR interval of 0 (intervals are positive)")
        #expect(Self.message(Array("812\nnan\n901\n".utf8)) == "rr.txt: line 2: 'nan' is not a number")
        #expect(Self.message(Array("812\ninf\n".utf8)) == "rr.txt: line 2: 'inf' is not a number")
        #expect(Self.message(Array("812\n0x3A4\n".utf8)) == "rr.txt: line 2: '0x3A4' is not a number")
        #expect(Self.message(Array("812\n1e999\n".utf8)) == "rr.txt: line 2: '1e999' is not a number")
        #expect(Self.message(Array("812\n0.845\n901\n".utf8)) == "rr.txt: mixed units: line 2 reads 0.845 (seconds?) and line 1 reads 812 (milliseconds?)")
        #expect(Self.message(Array("# nothing here\n\n".utf8)) == "rr.txt: no RR intervals in the file")
        #expect(Self.message([]) == "rr.txt: no RR intervals in the file")
        #expect(Self.message(Array("1 2 3\n".utf8)) == "rr.txt: line 1 has 3 values; expected one RR interval per line, or time and RR (or give --column)")
        #expect(Self.message(Array("Phone timestamp;RR-interval [ms]\n2026-12-02T07:30:00;abc\n".utf8)) == "rr.txt: line 2: 'abc' is not a number")
    }

    @Test("CRLF, a byte-order mark, quotes and a declared unit in seconds")
    func readsVariants() throws {
        let record = try Self.parse("\u{FEFF}\"IBI (s)\",\"HR\"\r\n\"0.812\",74\r\n\"0.845\",71\r\n")
        #expect(record.intervalsMilliseconds == [812, 845])
        #expect(try Self.parse("812\r845\r").intervalsMilliseconds == [812, 845])
        #expect(try Self.parse("8.12e2\n").intervalsMilliseconds == [812])
    }
}
