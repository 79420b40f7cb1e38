import NagiBase
import AudioFile
import NagiTestSupport
import Foundation
import Testing

@testable import GuideSources

@Suite struct CuePackTests {
    /// Writes `seconds` of a sine per channel (each channel's frequency given) through libsndfile.
    private func writeClip(
        _ path: String, format: AudioFileFormat, sampleRate: Int, frequencies: [Double], seconds: Double
    ) throws {
        let frameCount = Int(seconds * Double(sampleRate))
        let samples = Signal.interleave(frequencies.map {
            Signal.sine(frequencyHz: $0, amplitude: 0.5, frameCount: frameCount, sampleRate: sampleRate)
        })
        let writer = try AudioFileWriter(
            path: path, spec: AudioFileSpec(sampleRate: sampleRate, channelCount: frequencies.count, format: format),
            overwrite: false)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.commit()
    }

    /// A pack of every kind of file: WAV 22.05 kHz mono, FLAC 96 kHz stereo, Ogg Vorbis 44.1 kHz mono, and a
    /// hold-out clip sox wrote (FLAC, 22.05 kHz).
    private func mixedPack(in folder: TemporaryFolder) throws {
        try writeClip(folder.file("inhale.wav"), format: .wav, sampleRate: 22_050, frequencies: [440], seconds: 1.5)
        try writeClip(folder.file("hold.flac"), format: .flac, sampleRate: 96_000, frequencies: [550, 825], seconds: 0.75)
        try writeClip(folder.file("exhale.ogg"), format: .ogg, sampleRate: 44_100, frequencies: [660], seconds: 2)
        let sox = try Tool.run("/usr/bin/sox", ["-n", "-r", "22050", "-c", "1", folder.file("hold-out.flac"), "synth", "1", "sine", "770", "vol", "0.5"])
        #expect(sox.status == 0, "\(sox.output)")
    }

    @Test func eachClipIsItsOwnFileAtTheSessionRate() throws {
        let folder = try TemporaryFolder()
        try mixedPack(in: folder)
        let pack = try CuePack.load(folder: folder.path, sampleRate: 48_000)
        let expected: [(CueKind, channels: [Double], seconds: Double)] = [
            (.inhale, [440], 1.5), (.hold, [550, 825], 0.75), (.exhale, [660], 2), (.holdOut, [770], 1),
        ]
        for (kind, frequencies, seconds) in expected {
            let clip = pack.clip(for: kind)
            #expect(clip.sampleRate == 48_000)
            #expect(clip.channelCount == frequencies.count, "\(kind)")
            #expect(clip.frameCount == Int(seconds * 48_000), "\(kind): \(clip.frameCount) frames")
            #expect(clip.sourcePath.hasPrefix(folder.file(kind.baseName + ".")))
            for (channel, frequency) in frequencies.enumerated() {
                let samples = Signal.channel(clip.samples, channel, of: clip.channelCount)
                let inner = 2_400..<(samples.count - 2_400)
                let measured = Signal.frequency(samples, inner, sampleRate: 48_000)
                #expect(abs(measured - frequency) < 0.5, "\(kind) channel \(channel): \(measured) Hz")
                let level = Signal.amplitude(samples, inner, frequencyHz: frequency, sampleRate: 48_000)
                #expect(abs(level - 0.5) < 0.03, "\(kind) channel \(channel): amplitude \(level)")
            }
        }
    }

    @Test func holdsAfterAnExhaleUseHoldWhenThePackHasNoHoldOut() throws {
        let folder = try TemporaryFolder()
        try mixedPack(in: folder)
        try FileManager.default.removeItem(atPath: folder.file("hold-out.flac"))
        let pack = try CuePack.load(folder: folder.path, sampleRate: 44_100)
        #expect(pack.holdOut == nil)
        #expect(pack.clip(for: .holdOut) == pack.hold)
        #expect(pack.clip(for: .hold).channelCount == 2)
    }

    @Test func aMissingClipIsNamedWithExit66() throws {
        let folder = try TemporaryFolder()
        try mixedPack(in: folder)
        try FileManager.default.removeItem(atPath: folder.file("exhale.ogg"))
        let error = try #require(throws: CuePackError.self) { try CuePack.load(folder: folder.path, sampleRate: 48_000) }
        #expect(error == .clipMissing(expected: folder.file("exhale.*")))
        #expect(error.category == .missingInput)
        #expect(error.message.contains(folder.file("exhale.*")))
    }

    @Test func aMissingFolderExits66() throws {
        let folder = try TemporaryFolder()
        let error = try #require(throws: CuePackError.self) {
            try CuePack.load(folder: folder.file("nowhere"), sampleRate: 48_000)
        }
        #expect(error.category == .missingInput)
        #expect(error.message.contains(folder.file("nowhere")) && error.message.contains("No such file"))
    }

    @Test func textNamedLikeAudioExits65WithLibsndfilesReason() throws {
        let folder = try TemporaryFolder()
        try mixedPack(in: folder)
        try FileManager.default.removeItem(atPath: folder.file("inhale.wav"))
        try "breathe in, breathe out\n".write(toFile: folder.file("inhale.wav"), atomically: true, encoding: .utf8)
        let error = try #require(throws: CuePackError.self) { try CuePack.load(folder: folder.path, sampleRate: 48_000) }
        guard case .clip(.file(.notAudio(let path, let reason))) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(path == folder.file("inhale.wav"))
        #expect(!reason.isEmpty)
        #expect(error.category == .badData)
        #expect(error.message.contains(folder.file("inhale.wav")) && error.message.contains(reason))
    }

    @Test func audioWithoutFramesExits65() throws {
        let folder = try TemporaryFolder()
        try mixedPack(in: folder)
        try FileManager.default.removeItem(atPath: folder.file("hold.flac"))
        let writer = try AudioFileWriter(
            path: folder.file("hold.wav"), spec: AudioFileSpec(sampleRate: 48_000, channelCount: 1, format: .wav), overwrite: false)
        try writer.commit()
        let error = try #require(throws: CuePackError.self) { try CuePack.load(folder: folder.path, sampleRate: 48_000) }
        #expect(error == .clip(.noFrames(path: folder.file("hold.wav"))))
        #expect(error.category == .badData)
        #expect(error.message == "cue pack: '\(folder.file("hold.wav"))' has no audio frames")
    }

    @Test func aClipOver30SecondsExits65AndOneOf30IsTaken() throws {
        let folder = try TemporaryFolder()
        try mixedPack(in: folder)
        try FileManager.default.removeItem(atPath: folder.file("exhale.ogg"))
        try writeClip(folder.file("exhale.flac"), format: .flac, sampleRate: 8_000, frequencies: [660], seconds: 30)
        #expect(try CuePack.load(folder: folder.path, sampleRate: 48_000).exhale.frameCount == 30 * 48_000)
        try FileManager.default.removeItem(atPath: folder.file("exhale.flac"))
        try writeClip(folder.file("exhale.flac"), format: .flac, sampleRate: 8_000, frequencies: [660], seconds: 31)
        let error = try #require(throws: CuePackError.self) { try CuePack.load(folder: folder.path, sampleRate: 48_000) }
        #expect(error == .clip(.tooLong(path: folder.file("exhale.flac"), limitSeconds: 30)))
        #expect(error.category == .badData)
    }

    @Test func twoFilesForOneClipAreRefused() throws {
        let folder = try TemporaryFolder()
        try mixedPack(in: folder)
        try writeClip(folder.file("inhale.flac"), format: .flac, sampleRate: 48_000, frequencies: [440], seconds: 1)
        let error = try #require(throws: CuePackError.self) { try CuePack.load(folder: folder.path, sampleRate: 48_000) }
        #expect(error == .ambiguousClip(kind: .inhale, candidates: [folder.file("inhale.flac"), folder.file("inhale.wav")]))
        #expect(error.category == .badData)
        #expect(error.message.contains("keep one"))
    }

    @Test("sidecar files and editor backups beside a clip leave a working pack working (issue 21 item 13)")
    func sidecarFilesAreIgnored() throws {
        let folder = try TemporaryFolder()
        try mixedPack(in: folder)
        try FileManager.default.removeItem(atPath: folder.file("hold-out.flac"))
        for name in ["inhale.reapeaks", "inhale.wav~", "inhale.txt", "exhale.ogg.bak", "hold-out.txt", "hold.pdf"] {
            try Data("not audio".utf8).write(to: URL(fileURLWithPath: folder.file(name)))
        }
        let pack = try CuePack.load(folder: folder.path, sampleRate: 48_000)
        #expect(pack.inhale.sourcePath == folder.file("inhale.wav"))
        #expect(pack.holdOut == nil, "hold-out.txt is not a clip: holds after an exhale use hold.flac")
        #expect(pack.clip(for: .holdOut).sourcePath == folder.file("hold.flac"))
    }

    @Test("a missing clip names the non-audio files of its name; three clips for one are 'all' of it")
    func messagesSayWhatIsWrong() throws {
        let folder = try TemporaryFolder()
        try mixedPack(in: folder)
        try FileManager.default.removeItem(atPath: folder.file("exhale.ogg"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder.file("exhale.txt")))
        let missing = try #require(throws: CuePackError.self) { try CuePack.load(folder: folder.path, sampleRate: 48_000) }
        #expect(missing == .clipMissing(expected: folder.file("exhale.*"), ignored: [folder.file("exhale.txt")]))
        #expect(missing.message.contains("'\(folder.file("exhale.txt"))' is not audio"), "\(missing.message)")

        try writeClip(folder.file("exhale.flac"), format: .flac, sampleRate: 48_000, frequencies: [660], seconds: 1)
        try writeClip(folder.file("inhale.flac"), format: .flac, sampleRate: 48_000, frequencies: [440], seconds: 1)
        try writeClip(folder.file("inhale.aiff"), format: .wav, sampleRate: 48_000, frequencies: [440], seconds: 1)
        let three = try #require(throws: CuePackError.self) { try CuePack.load(folder: folder.path, sampleRate: 48_000) }
        #expect(three.message.hasSuffix("are all inhale clips; keep one"), "\(three.message)")
        #expect(!three.message.contains("a inhale"))
    }

    @Test("a folder named like a clip, or a link to /dev/zero, is refused as what it is by the rule for every input (66), never read")
    func clipNamesTakenByNonFiles() throws {
        for makeInhale in ["folder", "device"] {
            let folder = try TemporaryFolder()
            try mixedPack(in: folder)
            try FileManager.default.removeItem(atPath: folder.file("inhale.wav"))
            if makeInhale == "folder" {
                try FileManager.default.createDirectory(atPath: folder.file("inhale.wav"), withIntermediateDirectories: false)
            } else {
                try FileManager.default.createSymbolicLink(atPath: folder.file("inhale.wav"), withDestinationPath: "/dev/zero")
            }
            let error = try #require(throws: CuePackError.self) { try CuePack.load(folder: folder.path, sampleRate: 48_000) }
            #expect(error.category == .missingInput)
            let expected = makeInhale == "folder" ? "a folder, not a regular file" : "not a regular file (a device)"
            #expect(error.message == "cue pack: cannot open '\(folder.file("inhale.wav"))': \(expected)", "\(error.message)")
        }
    }

    @Test func moreThanTwoChannelsAreRefused() throws {
        let folder = try TemporaryFolder()
        try mixedPack(in: folder)
        try FileManager.default.removeItem(atPath: folder.file("inhale.wav"))
        try writeClip(folder.file("inhale.wav"), format: .wav, sampleRate: 48_000, frequencies: [440, 550, 660], seconds: 1)
        let error = try #require(throws: CuePackError.self) { try CuePack.load(folder: folder.path, sampleRate: 48_000) }
        #expect(error == .clip(.tooManyChannels(path: folder.file("inhale.wav"), channelCount: 3)))
        #expect(error.category == .badData)
        #expect(error.message == "cue pack: '\(folder.file("inhale.wav"))' has 3 channels; a cue clip is mono or stereo")
    }

    @Test func onlyBaseDotExtensionNamesAreClips() {
        let names = ["hold-out.wav", "hold.wav", "Hold.FLAC", "holder.wav", "hold.", ".hold.wav", "hold.wav.bak", "hold"]
        #expect(ClipFileMatcher.candidates(for: .hold, among: names) == ["Hold.FLAC", "hold.wav"])
        #expect(ClipFileMatcher.candidates(for: .holdOut, among: names) == ["hold-out.wav"])
    }
}
