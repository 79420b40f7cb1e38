import Foundation
import HeartRhythm
import Testing

/// The stamps and numbers real exports write: epoch milliseconds, a 12-hour clock, a record across midnight,
/// decimal commas, a chosen column; and the size limit.
@Suite("RR records: clocks, commas, columns and size")
struct RRClockParsingTests {
    static func parse(_ text: String, column: Int? = nil) throws(HeartRhythmError) -> RRRecord {
        try RRParser.parse(Array(text.utf8), name: "rr.csv", column: column)
    }

    @Test("epoch milliseconds stamp every beat; a gap in them shows in the beat times")
    func epochMilliseconds() throws {
        let record = try Self.parse("timestamp;RR [ms]\n1796189401000;800\n1796189401810;810\n1796189407000;790\n")
        let stamps = try #require(record.beatSeconds)
        #expect(stamps.count == 3)
        // Microseconds: the epoch's 1.8e9 s leave a double about 0.2 µs.
        #expect(abs(stamps[1] - 1.61) < 1e-6 && abs(stamps[2] - 6.8) < 1e-6, "\(stamps)")
        let start = try #require(record.startClock)
        #expect(start.zoneOffsetSeconds == 0)
        #expect(start.isoText == "2026-12-02T05:30:00.200Z")
        #expect(abs(record.durationSeconds - 6.8) < 1e-6)
    }

    @Test("Kubios' time column places the beats: a jump in it is a gap the intervals do not show")
    func kubiosTimes() throws {
        let record = try Self.parse("0.812 0.812\n1.657 0.845\n22.558 0.901\n")
        #expect(record.beatSeconds == [0.812, 1.657, 22.558].map { $0 - 0.812 + 0.812 })
        #expect(abs(record.durationSeconds - 22.558) < 1e-9)
        // Times that do not increase are not trusted; the intervals place the beats.
        #expect(try Self.parse("0.812 0.812\n0.5 0.845\n").beatSeconds == nil)
        #expect(try Self.parse("812\n845\n").beatSeconds == nil)
        // A time column in milliseconds, and a first column that is a beat number, not a time.
        #expect(try Self.parse("812 812\n1657 845\n").beatSeconds == [0.812, 1.657])
        #expect(try Self.parse("1 812\n2 845\n3 901\n").beatSeconds == nil)
    }

    @Test("a 12-hour clock: AM and PM, 12 AM is midnight and 12 PM noon, one-digit hours")
    func twelveHourClock() throws {
        #expect(ClockTime.parse("7:30:01 PM")?.wallSeconds == 70_201.0)
        #expect(ClockTime.parse("07:30:01am")?.wallSeconds == 27_001.0)
        #expect(ClockTime.parse("12:00:05 AM")?.wallSeconds == 5.0)
        #expect(ClockTime.parse("12:00:05 PM")?.wallSeconds == 43_205.0)
        #expect(ClockTime.parse("2026-12-02 07:30:01.250 PM")?.isoText == "2026-12-02T19:30:01.250")
        #expect(ClockTime.parse("13:00:00 PM") == nil)
        #expect(ClockTime.parse("0:30:00 AM") == nil)
        let record = try Self.parse("Time,RR\n11:59:59 AM,800\n12:00:00 PM,810\n")
        #expect(record.beatSeconds.map { $0.map { ($0 * 1000).rounded() / 1000 } } == [0.8, 1.8])
    }

    @Test("a record across midnight runs on into the next day; a start after midnight lies minutes in, not a day back")
    func acrossMidnight() throws {
        let record = try Self.parse("time;rr\n23:59:59.200;800\n00:00:00.000;800\n00:00:00.810;810\n")
        #expect(record.beatSeconds.map { $0.map { ($0 * 1000).rounded() / 1000 } } == [0.8, 1.6, 2.41])
        let origin = try #require(record.startClock)
        let start = try #require(ClockTime.parse("00:01:00"))
        #expect(abs(start.seconds(since: origin) - 61.6) < 1e-6)
        #expect(abs(try #require(ClockTime.parse("23:58:00")).seconds(since: origin) - (-118.4)) < 1e-6)
    }

    @Test("decimal commas where ; or tab separates; a comma-separated file keeps the comma as separator")
    func decimalComma() throws {
        #expect(try Self.parse("Zeit;RR-Intervall (s)\n07:30:00;0,812\n07:30:01;0,845\n").intervalsMilliseconds == [812, 845])
        #expect(try Self.parse("time\trr\n07:30:00\t812,5\n").intervalsMilliseconds == [812.5])
        #expect(try Self.parse("time,rr\n07:30:00,812\n").intervalsMilliseconds == [812])
    }

    @Test("--column picks the RR column, with or without a header naming it; out of range refused")
    func column() throws {
        let table = "time;hr;beat [ms]\n07:30:00;71;812\n07:30:01;70;845\n"
        #expect(try Self.parse(table, column: 3).intervalsMilliseconds == [812, 845])
        #expect(try Self.parse(table, column: 3).formatDescription == "CSV column 3 'beat [ms]', ms")
        #expect(try Self.parse("1 71 812\n2 70 845\n", column: 3).intervalsMilliseconds == [812, 845])
        #expect(throws: HeartRhythmError.self) { try Self.parse(table, column: 4) }
        do {
            _ = try Self.parse(table, column: 4)
        } catch {
            #expect(error.category == .usage)
            #expect(error.message == "--column 4: the header on line 1 has 3 columns")
        }
    }

    @Test("more than 200 000 beats is refused with one line, quickly, before the file's lines are all held")
    func sizeLimit() throws {
        let line = Array("812\n".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.count * 200_001)
        for _ in 0..<200_000 { bytes += line }
        #expect(try RRParser.parse(bytes, name: "rr.txt").intervalsMilliseconds.count == 200_000)
        bytes += line
        do {
            _ = try RRParser.parse(bytes, name: "rr.txt")
            Issue.record("200 001 beats were read")
        } catch {
            #expect(error.category == .badData)
            #expect(error.message == "rr.txt: more than 200000 beats, the most a record may hold (48 hours at 70 a minute); cut the record to the session")
        }
        let huge = [UInt8](repeating: UInt8(ascii: "\n"), count: 5_000_000)
        #expect(throws: HeartRhythmError.self) { try RRParser.parse(line + huge, name: "rr.txt") }
    }
}
