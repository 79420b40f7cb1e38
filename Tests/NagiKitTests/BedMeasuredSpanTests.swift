import Testing
@testable import NagiKit

/// Where a bed is measured for its loudness (`BedMeasurement.spans`).
@Suite("A bed's loudness is measured over what the session plays")
struct BedMeasuredSpanTests {
    @Test("sixteen excerpts spread evenly from the first frame to the end of what is heard")
    func excerptsSpreadOverTheHeardPart() {
        let excerpt: Int64 = 5 * 44_100 / 2
        let heard: Int64 = 600 * 44_100
        let spans = BedMeasurement.spans(heardFrames: heard, recordingFrames: 3_600 * 44_100, excerptFrames: excerpt)
        #expect(spans.count == BedMeasurement.excerptCount)
        #expect(spans.first?.lowerBound == 0)
        #expect(spans.last?.upperBound == heard)
        #expect(spans.allSatisfy { $0.count == Int(excerpt) })
        let gaps = zip(spans.dropFirst(), spans).map { $0.lowerBound - $1.lowerBound }
        #expect(gaps.allSatisfy { abs($0 - (heard - excerpt) / Int64(BedMeasurement.excerptCount - 1)) <= 1 }, "\(gaps)")
    }

    @Test("a recording shorter than the session is spread over its own length")
    func aShortRecordingIsMeasuredToItsEnd() {
        let spans = BedMeasurement.spans(heardFrames: 600 * 48_000, recordingFrames: 300 * 48_000, excerptFrames: 5 * 48_000 / 2)
        let end: Int64 = 300 * 48_000
        #expect(spans.last?.upperBound == end)
        #expect(spans.count == BedMeasurement.excerptCount)
    }

    @Test("40 s or less heard, or a length the file does not say, is measured from the start in one piece")
    func shortOrUnknownIsOnePiece() {
        let excerpt: Int64 = 5 * 48_000 / 2
        #expect(BedMeasurement.spans(heardFrames: 30 * 48_000, recordingFrames: 300 * 48_000, excerptFrames: excerpt) == [0..<(30 * 48_000)])
        #expect(BedMeasurement.spans(heardFrames: 600 * 48_000, recordingFrames: 20 * 48_000, excerptFrames: excerpt) == [0..<(20 * 48_000)])
        #expect(BedMeasurement.spans(heardFrames: 600 * 48_000, recordingFrames: nil, excerptFrames: excerpt) == [0..<(40 * 48_000)])
    }
}
