import Foundation
import Glibc
import NagiTestSupport
import Testing

@testable import AudioFile

@Suite struct PartialFileCleanerTests {
    /// The id of a process that has exited and been reaped.
    private func deadPID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func staleFileOfADeadProcessIsRemovedOneOfALiveProcessKept() throws {
        let folder = try TemporaryFolder()
        let dead = try deadPID()
        #expect(!PartialFileCleaner.isAlive(dead))
        let stale = ".a.wav.nagi-partial-\(dead)"
        let live = ".b.wav.nagi-partial-\(getpid())"
        let others = ["a.wav", ".d.wav.nagi-partial-abc", ".nagi-partial-\(dead)", "e.nagi-partial-\(dead)"]
        for name in [stale, live] + others {
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file(name)))
        }
        try FileManager.default.createDirectory(
            atPath: folder.file(".f.wav.nagi-partial-\(dead)"), withIntermediateDirectories: false)

        #expect(PartialFileCleaner.removeStale(in: folder.path) == [stale])
        #expect(folder.contents == ([live, ".f.wav.nagi-partial-\(dead)"] + others).sorted())
    }

    @Test func aWriterInProgressIsNotCleanedAway() throws {
        let folder = try TemporaryFolder()
        let writer = try AudioFileWriter(
            path: folder.file("busy.wav"), spec: AudioFileSpec(sampleRate: 48_000, channelCount: 1, format: .wav),
            overwrite: false)
        #expect(PartialFileCleaner.removeStale(in: folder.path) == [])
        try writer.write(TestSignal.sine(frames: 4_800, channelCount: 1, sampleRate: 48_000))
        try writer.commit()
        #expect(folder.contents == ["busy.wav"])
    }

    @Test func missingFolderRemovesNothing() {
        #expect(PartialFileCleaner.removeStale(in: "/nonexistent-nagi-folder") == [])
    }

    @Test func partialNamesEncodeTheWriterPID() {
        #expect(PartialFileName.make(for: "x.flac", pid: 42) == ".x.flac.nagi-partial-42")
        #expect(PartialFileName.ownerPID(of: ".x.flac.nagi-partial-42") == 42)
        #expect(PartialFileName.ownerPID(of: ".x.nagi-partial-7.nagi-partial-9") == 9)
        #expect(PartialFileName.ownerPID(of: "x.flac.nagi-partial-42") == nil)
        #expect(PartialFileName.ownerPID(of: ".x.flac.nagi-partial-") == nil)
        #expect(PartialFileName.ownerPID(of: ".x.flac.nagi-partial-4a") == nil)
        #expect(PartialFileName.ownerPID(of: ".x.flac.nagi-partial-0") == nil)
        #expect(PartialFileName.ownerPID(of: ".x.flac.nagi-partial-99999999999") == nil)
    }
}
