import NagiBase
import Foundation
import Glibc
import NagiTestSupport
import Testing

@testable import AudioFile

@Suite struct SafeOutputTests {
    private let stereoWAV = AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .wav)
    private let second = TestSignal.sine(frames: 48_000, channelCount: 2, sampleRate: 48_000)

    @Test func targetAppearsOnlyAtCommitFromAHiddenTemporaryFileBesideIt() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("session.wav")
        let writer = try AudioFileWriter(path: path, spec: stereoWAV, overwrite: false)
        let temporary = try #require(writer.temporaryPath)
        #expect((temporary as NSString).deletingLastPathComponent == folder.path)
        let name = (temporary as NSString).lastPathComponent
        #expect(name == ".session.wav.nagi-partial-\(getpid())")
        try writer.write(second)
        #expect(folder.contents == [name])
        #expect(fileType(path) == nil)
        try writer.commit()
        #expect(folder.contents == ["session.wav"])
        #expect(try AudioFileReader.info(path: path).frameCount == 48_000)
    }

    @Test func existingTargetWithoutOverwriteIsRefusedAndUntouched() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("keep.wav")
        let original = Data("not audio, but mine".utf8)
        try original.write(to: URL(fileURLWithPath: path))
        #expect(throws: AudioFileError.targetExists(path: path)) {
            try AudioFileWriter(path: path, spec: stereoWAV, overwrite: false)
        }
        #expect(fileContents(path) == original)
        #expect(folder.contents == ["keep.wav"])
    }

    @Test func overwriteReplacesOnlyAtCommitAndKeepsPermissions() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("replace.wav")
        let original = Data("old".utf8)
        try original.write(to: URL(fileURLWithPath: path))
        chmod(path, 0o640)

        // Discarded: the old file stays.
        let abandoned = try AudioFileWriter(path: path, spec: stereoWAV, overwrite: true)
        try abandoned.write(second)
        abandoned.discard()
        #expect(fileContents(path) == original)

        let writer = try AudioFileWriter(path: path, spec: stereoWAV, overwrite: true)
        try writer.write(second)
        #expect(fileContents(path) == original)
        try writer.commit()
        #expect(try AudioFileReader.info(path: path).frameCount == 48_000)
        var status = stat()
        stat(path, &status)
        #expect(status.st_mode & 0o777 == 0o640)
        #expect(folder.contents == ["replace.wav"])
    }

    @Test func aFileTakingTheNameBeforeCommitIsNotReplaced() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("race.wav")
        let writer = try AudioFileWriter(path: path, spec: stereoWAV, overwrite: false)
        try writer.write(second)
        let intruder = Data("arrived meanwhile".utf8)
        try intruder.write(to: URL(fileURLWithPath: path))
        #expect(throws: AudioFileError.targetExists(path: path)) { try writer.commit() }
        #expect(fileContents(path) == intruder)
        #expect(folder.contents == ["race.wav"])
    }

    @Test func aSymbolicLinkTargetKeepsTheLinkAndReplacesWhatItPointsTo() throws {
        let folder = try TemporaryFolder()
        let real = folder.file("real.wav")
        let link = folder.file("link.wav")
        try Data("old".utf8).write(to: URL(fileURLWithPath: real))
        symlink(real, link)
        let writer = try AudioFileWriter(path: link, spec: stereoWAV, overwrite: true)
        try writer.write(second)
        try writer.commit()
        #expect(fileType(link) == S_IFLNK)
        #expect(try AudioFileReader.info(path: real).frameCount == 48_000)
        #expect(folder.contents == ["link.wav", "real.wav"])
    }

    @Test(arguments: ["/nonexistent-nagi-folder/out.wav", "/proc/nagi-out.wav", "/proc/self/nagi/out.wav"])
    func unwritableFolderThrowsCannotCreate(path: String) throws {
        do {
            _ = try AudioFileWriter(path: path, spec: stereoWAV, overwrite: false)
            Issue.record("\(path) was created")
        } catch let error as AudioFileError {
            guard case .cannotCreate(let reportedPath, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reportedPath == path)
            #expect(reason.hasPrefix("open: "))
            #expect(error.category == .cannotCreate)
        }
        #expect(fileType(path) == nil)
    }

    @Test func aFolderInTheWayThrowsCannotCreate() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("dir.wav"), withIntermediateDirectories: false)
        #expect {
            try AudioFileWriter(path: folder.file("dir.wav"), spec: stereoWAV, overwrite: true)
        } throws: { error in
            guard case .cannotCreate = error as? AudioFileError else { return false }
            return true
        }
        #expect(fileType(folder.file("dir.wav")) == S_IFDIR)
    }

    @Test(arguments: AudioFileFormat.allCases)
    func writingToDevNullWorksAndLeavesADevice(format: AudioFileFormat) throws {
        let spec = AudioFileSpec(
            sampleRate: 48_000, channelCount: 2, format: format, tags: AudioTags(title: "to nowhere"))
        let writer = try AudioFileWriter(path: "/dev/null", spec: spec, overwrite: false)
        #expect(writer.temporaryPath == nil)
        try writer.write(second)
        try writer.commit()
        #expect(writer.framesWritten == 48_000)
        #expect(fileType("/dev/null") == S_IFCHR)
    }

    @Test func discardLeavesNoFileAndIsIdempotent() throws {
        let folder = try TemporaryFolder()
        let writer = try AudioFileWriter(path: folder.file("gone.flac"), spec: AudioFileSpec(
            sampleRate: 48_000, channelCount: 2, format: .flac), overwrite: false)
        try writer.write(second)
        #expect(folder.contents.count == 1)
        writer.discard()
        writer.discard()
        #expect(folder.contents == [])
        #expect(throws: AudioFileError.self) { try writer.write(second) }
        #expect(throws: AudioFileError.self) { try writer.commit() }
        #expect(folder.contents == [])
    }

    @Test func releasingAnUncommittedWriterRemovesItsTemporaryFile() throws {
        let folder = try TemporaryFolder()
        do {
            let writer = try AudioFileWriter(path: folder.file("dropped.ogg"), spec: AudioFileSpec(
                sampleRate: 48_000, channelCount: 2, format: .ogg), overwrite: false)
            try writer.write(second)
            #expect(folder.contents.count == 1)
        }
        #expect(folder.contents == [])
    }

    @Test func commitTwiceIsHarmless() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("twice.wav")
        let writer = try AudioFileWriter(path: path, spec: stereoWAV, overwrite: false)
        try writer.write(second)
        try writer.commit()
        try writer.commit()
        writer.discard()
        #expect(try AudioFileReader.info(path: path).frameCount == 48_000)
    }
}

@Suite struct PipeOutputTests {
    /// A pipe is written straight: what a reader on the other end captures decodes to the frames written.
    @Test(arguments: [AudioFileFormat.ogg, .opus, .mp3])
    func writingIntoAPipeStreamsTheFile(format: AudioFileFormat) throws {
        let folder = try TemporaryFolder()
        let fifo = folder.file("pipe")
        let captured = folder.file("captured.\(format.fileExtension)")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(FileManager.default.createFile(atPath: captured, contents: nil))
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        reader.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: captured))
        try reader.run()
        defer {
            if reader.isRunning { reader.terminate() }
            reader.waitUntilExit()
        }

        let spec = AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: format, tags: AudioTags(title: "piped"))
        let writer = try AudioFileWriter(path: fifo, spec: spec, overwrite: false)
        #expect(writer.temporaryPath == nil)
        try writer.write(TestSignal.sine(frames: 48_000, channelCount: 2, sampleRate: 48_000))
        try writer.commit()
        reader.waitUntilExit()

        #expect(fileType(fifo) == S_IFIFO)
        #expect(try AudioFileReader.info(path: captured).tags.title == "piped")
        if format != .mp3 {
            // Without a seekable file LAME cannot fill in its length header, and libsndfile's MP3 reader then
            // misjudges the length of a VBR stream (ffmpeg decodes all of it); so only the others are counted.
            #expect(try AudioFileReader.readFloat(path: captured).count == 48_000 * 2)
        }
    }

    /// WAV and FLAC, which libsndfile cannot write into a pipe itself, and raw PCM: what the reader captures holds
    /// exactly the samples a file of the same spec holds. WAV carries "unknown" sizes, cues and tags; FLAC's
    /// STREAMINFO says 0 samples (unknown), as the rewrite at the end cannot go back into the pipe.
    @Test(arguments: [AudioFileFormat.wav, .flac, .raw])
    func formatsThatSeekBackStreamWhole(format: AudioFileFormat) throws {
        let folder = try TemporaryFolder()
        let fifo = folder.file("pipe")
        let captured = folder.file("captured.\(format.fileExtension)")
        #expect(mkfifo(fifo, 0o600) == 0)
        _ = FileManager.default.createFile(atPath: captured, contents: nil)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        reader.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: captured))
        try reader.run()
        defer {
            if reader.isRunning { reader.terminate() }
            reader.waitUntilExit()
        }
        let spec = AudioFileSpec(
            sampleRate: 48_000, channelCount: 2, format: format, tags: AudioTags(title: "piped"),
            cueFrames: format == .wav ? [0, 12_000, 30_000] : [])
        let signal = TestSignal.noisySine(frames: 48_000, channelCount: 2, sampleRate: 48_000)
        let writer = try AudioFileWriter(path: fifo, spec: spec, overwrite: false)
        try writer.write(signal)
        try writer.commit()
        reader.waitUntilExit()

        let reference = folder.file("reference.\(format.fileExtension)")
        let fileWriter = try AudioFileWriter(path: reference, spec: spec, overwrite: false)
        try fileWriter.write(signal)
        try fileWriter.commit()
        switch format {
        case .raw:
            #expect(fileContents(captured) == fileContents(reference))
            #expect(fileContents(captured)?.count == 48_000 * 2 * 2)
        case .wav:
            let bytes = try #require(fileContents(captured))
            #expect(Array(bytes.prefix(8)) == Array("RIFF".utf8) + [0xFF, 0xFF, 0xFF, 0xFF])
            #expect(try AudioFileReader.readFloat(path: captured) == AudioFileReader.readFloat(path: reference))
            let info = try AudioFileReader.info(path: captured)
            #expect(info.cueFrames == [0, 12_000, 30_000])
            #expect(info.tags.title == "piped")
        default:
            #expect(try AudioFileReader.readFloat(path: captured) == AudioFileReader.readFloat(path: reference))
            #expect(try AudioFileReader.info(path: captured).tags.title == "piped")
        }
    }
}
