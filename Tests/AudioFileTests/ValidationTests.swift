import NagiBase
import NagiTestSupport
import Testing

@testable import AudioFile

@Suite struct ValidationTests {
    /// The `.unsupported` text `spec` is refused with, or nil when it is accepted.
    private func refusal(_ spec: AudioFileSpec) -> String? {
        do {
            try spec.validate()
            return nil
        } catch let AudioFileError.unsupported(text) {
            return text
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func opusAt44100IsRefusedAndNothingIsCreated() throws {
        let folder = try TemporaryFolder()
        let spec = AudioFileSpec(sampleRate: 44_100, channelCount: 2, format: .opus)
        #expect(refusal(spec)?.contains("44100 Hz") == true)
        #expect(throws: AudioFileError.self) {
            try AudioFileWriter(path: folder.file("x.opus"), spec: spec, overwrite: false)
        }
        #expect(folder.contents == [])
    }

    @Test func flacFloatIsRefusedAndNothingIsCreated() throws {
        let folder = try TemporaryFolder()
        let spec = AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .flac, encoding: .float)
        #expect(refusal(spec)?.contains("FLAC") == true)
        do {
            _ = try AudioFileWriter(path: folder.file("x.flac"), spec: spec, overwrite: false)
            Issue.record("FLAC float was accepted")
        } catch let error as AudioFileError {
            guard case .unsupported = error else { Issue.record("\(error)"); return }
            #expect(error.category == .usage)
        }
        #expect(folder.contents == [])
    }

    @Test func opusRatesAreExactlyTheFiveOpusRates() {
        for rate in [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 96_000] {
            let accepted = refusal(AudioFileSpec(sampleRate: rate, channelCount: 1, format: .opus)) == nil
            #expect(accepted == [8_000, 12_000, 16_000, 24_000, 48_000].contains(rate), "\(rate) Hz")
        }
    }

    @Test func mp3TakesTheMPEGLayerIIIRatesAndAtMostTwoChannels() {
        for rate in [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 88_200, 96_000] {
            let accepted = refusal(AudioFileSpec(sampleRate: rate, channelCount: 2, format: .mp3)) == nil
            #expect(accepted == (rate <= 48_000), "\(rate) Hz")
        }
        #expect(refusal(AudioFileSpec(sampleRate: 44_100, channelCount: 3, format: .mp3)) != nil)
    }

    @Test func boundsOfRateChannelsAndQuality() {
        #expect(refusal(AudioFileSpec(sampleRate: 7_999, channelCount: 2, format: .wav)) != nil)
        #expect(refusal(AudioFileSpec(sampleRate: 192_001, channelCount: 2, format: .flac)) != nil)
        #expect(refusal(AudioFileSpec(sampleRate: 192_000, channelCount: 8, format: .ogg)) == nil)
        #expect(refusal(AudioFileSpec(sampleRate: 48_000, channelCount: 0, format: .wav)) != nil)
        #expect(refusal(AudioFileSpec(sampleRate: 48_000, channelCount: 9, format: .wav)) != nil)
        for quality in [-0.01, 1.01, .nan, .infinity] {
            #expect(refusal(AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .ogg, quality: quality)) != nil)
        }
        #expect(refusal(AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .mp3, quality: 0)) == nil)
    }

    @Test func cuePointsOnlyInWAVAndInRange() {
        #expect(refusal(AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .flac, cueFrames: [0])) != nil)
        #expect(refusal(AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .wav, cueFrames: [-1])) != nil)
        #expect(refusal(AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .wav, cueFrames: [1 << 32])) != nil)
        #expect(refusal(AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .wav, cueFrames: [0, 4_800])) == nil)
    }

    @Test func tagsThatCannotBeStoredAreRefused() {
        func spec(_ format: AudioFileFormat, _ tags: AudioTags) -> AudioFileSpec {
            AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: format, tags: tags)
        }
        // Every format holds full Unicode now that files are tagged through TagLib (the MP3 read-back is below).
        #expect(refusal(spec(.mp3, AudioTags(title: "凪"))) == nil)
        #expect(refusal(spec(.ogg, AudioTags(title: "凪"))) == nil)
        #expect(refusal(spec(.mp3, AudioTags(title: "凪\u{7}"))) != nil)
        #expect(refusal(spec(.mp3, AudioTags(title: "a\nb"))) != nil)
        #expect(refusal(spec(.wav, AudioTags(title: "a\u{0}b"))) != nil)
        #expect(refusal(spec(.wav, AudioTags(comment: String(repeating: "x", count: 1_001)))) != nil)
        #expect(refusal(spec(.wav, AudioTags(trackNumber: 0))) != nil)
        #expect(refusal(spec(.wav, AudioTags(trackCount: 3))) != nil)
        #expect(refusal(spec(.wav, AudioTags(trackNumber: 4, trackCount: 3))) != nil)
        #expect(refusal(spec(.wav, AudioTags(trackNumber: 3, trackCount: 3))) == nil)
    }

    @Test func wavFrameLimitIsFourGibibytes() {
        let stereo16 = AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .wav)
        let limit = stereo16.maximumFrameCount ?? 0
        // 4 GiB / 4 bytes a frame, less a header reserve: just over 6 h at 48 kHz.
        #expect(limit < (1 << 30))
        #expect(limit > 48_000 * 3_600 * 6)
        #expect(AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .flac).maximumFrameCount == nil)
    }

    @Test func fileExtensions() {
        #expect(AudioFileFormat(fileExtension: "WAVE") == .wav)
        #expect(AudioFileFormat(fileExtension: "wav") == .wav)
        #expect(AudioFileFormat(fileExtension: "Flac") == .flac)
        #expect(AudioFileFormat(fileExtension: "oga") == .ogg)
        #expect(AudioFileFormat(fileExtension: "OGG") == .ogg)
        #expect(AudioFileFormat(fileExtension: "opus") == .opus)
        #expect(AudioFileFormat(fileExtension: "MP3") == .mp3)
        #expect(AudioFileFormat(fileExtension: "aiff") == nil)
        #expect(AudioFileFormat(fileExtension: ".wav") == nil)
        #expect(AudioFileFormat.allCases.allSatisfy { AudioFileFormat(fileExtension: $0.fileExtension) == $0 })
    }

    @Test func errorsCarryExitCodesAndOneLineMessages() {
        let full = AudioFileError.writeFailed(path: "x.flac", reason: "sf_write_float: No space left on device")
        #expect(full.category == .inputOutput)
        #expect(full.message == "cannot write 'x.flac': sf_write_float: No space left on device")
        #expect(AudioFileError.targetExists(path: "x.wav").category == .cannotCreate)
        #expect(AudioFileError.targetExists(path: "x.wav").message == "'x.wav' already exists")
        #expect(AudioFileError.cannotCreate(path: "x", reason: "r").category == .cannotCreate)
        #expect(AudioFileError.unsupported("u").category == .usage)
        #expect(AudioFileError.cannotRead(path: "x", reason: "r").category == .missingInput)
    }
}
