import NagiBase
import Foundation
import Glibc
import NagiTestSupport
import Testing

@testable import AudioFile

/// A real full disk: a 256 KiB tmpfs.
@Suite(.enabled(if: TmpfsMount.isAvailable, "cannot mount a tmpfs here (needs root and mount permission)"))
struct FullDiskTests {
    private static let noSpace = "No space left on device"

    @Test(arguments: AudioFileFormat.allCases)
    func writingUntilTheDiskIsFullThrowsWriteFailedAndLeavesNothing(format: AudioFileFormat) throws {
        let mount = try TmpfsMount(size: "256k")
        let path = mount.file("long.\(format.fileExtension)")
        let spec = AudioFileSpec(
            sampleRate: 48_000, channelCount: 2, format: format, tags: AudioTags(title: "fills the disk"))
        let block = TestSignal.noisySine(frames: 4_800, channelCount: 2, sampleRate: 48_000)
        let writer = try AudioFileWriter(path: path, spec: spec, overwrite: false)

        var failure: AudioFileError?
        // 256 KiB hold far less than ten minutes of any of these formats.
        for _ in 0..<(10 * 60 * 10) {
            do {
                try writer.write(block)
            } catch let error as AudioFileError {
                failure = error
                break
            }
        }
        if failure == nil {
            do { try writer.commit() } catch let error as AudioFileError { failure = error }
        }
        let error = try #require(failure, "ten minutes of \(format) fitted in 256 KiB")
        guard case .writeFailed(let reportedPath, let reason) = error else {
            Issue.record("expected writeFailed, got \(error)")
            return
        }
        #expect(reportedPath == path)
        #expect(reason.contains(Self.noSpace), "\(reason)")
        #expect(error.message.hasPrefix("cannot write '\(path)': "))
        #expect(error.category == .inputOutput)
        // Failing cleaned up at once: no target, no temporary file, space given back.
        #expect(mount.contents == [])
    }

    @Test func aFullDiskSeenOnlyWhenClosingFailsTheCommit() throws {
        let mount = try TmpfsMount(size: "256k")
        // One 4 KiB page left: room for the FLAC header, not for the block libFLAC encodes when it is closed.
        mount.fill(leaving: 4_096)
        let path = mount.file("short.flac")
        let writer = try AudioFileWriter(
            path: path, spec: AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .flac), overwrite: false)
        // Fewer frames than one FLAC block (4096): libFLAC holds them all until sf_close. Noise barely compresses.
        let noise = TestSignal.noisySine(frames: 4_000, channelCount: 2, sampleRate: 48_000).map { $0 * 2 }
        try writer.write(noise)
        #expect {
            try writer.commit()
        } throws: { error in
            guard case .writeFailed(_, let reason) = error as? AudioFileError else { return false }
            return reason == "sf_close: \(Self.noSpace)"
        }
        #expect(fileType(path) == nil)
        #expect(mount.contents == ["filler"])
    }

    @Test func aFullDiskWhenTheHeaderIsWrittenFailsTheOpen() throws {
        let mount = try TmpfsMount(size: "256k")
        mount.fill()
        let path = mount.file("header.wav")
        #expect {
            try AudioFileWriter(
                path: path, spec: AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .wav), overwrite: false)
        } throws: { error in
            guard case .writeFailed(_, let reason) = error as? AudioFileError else { return false }
            return reason.contains(Self.noSpace)
        }
        #expect(mount.contents == ["filler"])
    }
}

/// /dev/full fails every write with ENOSPC: the straight (non-renamed) path reports it too.
@Suite struct DevFullTests {
    @Test(arguments: AudioFileFormat.allCases)
    func writingToDevFullThrowsWriteFailed(format: AudioFileFormat) throws {
        let spec = AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: format)
        let block = TestSignal.noisySine(frames: 48_000, channelCount: 2, sampleRate: 48_000)
        var failure: AudioFileError?
        do {
            let writer = try AudioFileWriter(path: "/dev/full", spec: spec, overwrite: false)
            for _ in 0..<10 { try writer.write(block) }
            try writer.commit()
        } catch let error as AudioFileError {
            failure = error
        }
        let error = try #require(failure, "\(format) to /dev/full reported nothing")
        guard case .writeFailed(_, let reason) = error else {
            Issue.record("expected writeFailed, got \(error)")
            return
        }
        #expect(reason.contains("No space left on device"), "\(reason)")
        #expect(fileType("/dev/full") == S_IFCHR)
    }
}
