import NagiTestSupport
import Foundation
import Testing

@testable import BedSource

/// A one-hour FLAC bed streams in little memory. The measurement runs in a child process (this test binary,
/// asked for this one test) so that nothing else the suite does in parallel shows in its peak.
@Suite struct BedStreamMemoryTests {
    private static let probeVariable = "NAGI_BED_MEMORY_PROBE"

    @Test func oneHourFlacBedStreamsUnder64MB() throws {
        if let probe = ProcessInfo.processInfo.environment[Self.probeVariable] {
            try Self.measure(probe)
            return
        }
        let folder = try TemporaryFolder()
        let bed = folder.file("hour.flac")
        // 16 kHz mono at compression level 0: the encoder is the slow part of making the file (44.1 kHz took
        // 15 s of CPU here), and the rate does not change what is measured: a bed held whole would be 690 MB of
        // Float once at 48 kHz, whatever its own rate.
        let sox = try Tool.run(
            "/usr/bin/sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", "-C", "0", bed, "synth", "3600", "sine", "220", "vol", "0.5"])
        try #require(sox.status == 0, "\(sox.output)")
        let report = folder.file("report.txt")
        let child = try Tool.run(
            "/usr/bin/env",
            ["\(Self.probeVariable)=\(bed)|\(report)", try Self.testBinary(), "--testing-library", "swift-testing",
             "--filter", "BedStreamMemoryTests"])
        try #require(child.status == 0, "\(child.output)")
        let figures = try String(contentsOfFile: report, encoding: .utf8).split(separator: " ").compactMap { Int($0) }
        try #require(figures.count == 3)
        let (frames, peakKiB, startKiB) = (figures[0], figures[1], figures[2])
        // The whole hour came through, at 48 kHz.
        #expect(frames == 3_600 * 48_000)
        // Held whole it would be 690 MB of Float at 48 kHz; streamed, the process peaks under 64 MB and grows by
        // a few blocks over what it held before the bed was opened.
        #expect(peakKiB < 64 * 1_024, "peak \(peakKiB) KiB")
        #expect(peakKiB - startKiB < 8 * 1_024, "grew \(peakKiB - startKiB) KiB")
    }

    /// This test binary's path (the child runs it again).
    private static func testBinary() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// In the child: stream the bed through to its end at 48 kHz mono, then write the frames, the peak and the
    /// starting resident memory (KiB) to the report.
    private static func measure(_ probe: String) throws {
        let parts = probe.split(separator: "|").map(String.init)
        try #require(parts.count == 2)
        let startKiB = try statusKiB("VmRSS:")
        let stream = try BedStream(path: parts[0], sampleRate: 48_000, channelCount: 1)
        var block = [Float](repeating: 0, count: 4_800)
        var frames = 0
        while true {
            let count = try block.withUnsafeMutableBufferPointer { try stream.read(into: $0) }
            frames += count
            if count < 4_800 { break }
        }
        let peakKiB = try statusKiB("VmHWM:")
        try "\(frames) \(peakKiB) \(startKiB)".write(toFile: parts[1], atomically: true, encoding: .utf8)
    }

    private static func statusKiB(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field) })
        return try #require(Int(line.dropFirst(field.count).filter(\.isNumber)))
    }
}
