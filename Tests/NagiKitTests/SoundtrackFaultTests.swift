import Foundation
import NagiKit
import NagiTestSupport
import Testing

/// A guide speaker of the test's own: a 1 kHz tone for every phrase, counted.
private final class ToneSpeaker: PhraseSpeaker, @unchecked Sendable {
    let lock = NSLock()
    private(set) var spoken: [String] = []

    func speak(_ text: String, voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [Float] {
        lock.withLock { spoken.append(text) }
        return (0..<(sampleRate / 4)).map { Float(0.5 * sin(2 * Double.pi * 1000 * Double($0) / Double(sampleRate))) }
    }
}

/// `ToneSpeaker`'s clips, but asked for many phrases at once it answers only the first half of them.
private struct ShortAnsweringSpeaker: PhraseSpeaker {
    let tone = ToneSpeaker()

    func speak(_ text: String, voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [Float] {
        try tone.speak(text, voice: voice, sampleRate: sampleRate)
    }

    func speakAll(_ texts: [String], voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [[Float]] {
        try texts.prefix(texts.count / 2).map { text throws(SoundtrackError) in try speak(text, voice: voice, sampleRate: sampleRate) }
    }
}

/// A speaker that cannot say anything.
private struct MuteSpeaker: PhraseSpeaker {
    func speak(_ text: String, voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [Float] {
        throw .unspeakable(text: text, reason: "this speaker is mute")
    }
}

@Suite("NagiKit: each fault as data, cancellation, an app's own guide")
struct SoundtrackFaultTests {
    static func request(bed: String? = nil, guide: SoundtrackRequest.Guide = .init(), target: Double? = nil) throws -> SoundtrackRequest {
        SoundtrackRequest(
            schedule: try KitFixtures.schedule(cycles: 2), soundscape: try BuiltinLibrary.soundscape(named: "horizon"), guide: guide,
            bed: bed.map { .init(path: $0) }, loudnessTargetLUFS: target)
    }

    @Test("a missing bed is .bed, with the file named, before anything is compiled or written")
    func missingBed() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("nothing.flac")
        #expect {
            _ = try Soundtrack.prepare(Self.request(bed: path))
        } throws: { error in
            guard case let .bed(fault) = error as? SoundtrackError else { return false }
            return fault.message.contains("nothing.flac")
        }
    }

    @Test("a file that is not audio is .bed")
    func notAudio() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("notes.wav")
        try Data("not a recording".utf8).write(to: URL(fileURLWithPath: path))
        #expect { _ = try Soundtrack.prepare(Self.request(bed: path)) } throws: { error in
            if case .bed = error as? SoundtrackError { return true }
            return false
        }
    }

    @Test("a missing cue pack folder is .cuePack")
    func missingCuePack() throws {
        let folder = try TemporaryFolder()
        #expect { _ = try Soundtrack.prepare(Self.request(guide: .init(cuePackFolder: folder.file("no-pack")))) } throws: { error in
            if case .cuePack = error as? SoundtrackError { return true }
            return false
        }
    }

    @Test("a speaker's failure reaches the caller as it threw it; words it cannot say are .unspeakable")
    func unspeakable() throws {
        #expect {
            _ = try Soundtrack.prepare(Self.request(guide: .init(cues: .voice)), guide: GuideClipCache(speaker: MuteSpeaker()))
        } throws: { error in
            guard case let .unspeakable(text, reason) = error as? SoundtrackError else { return false }
            return !text.isEmpty && reason == "this speaker is mute"
        }
    }

    @Test("an app's own speaker is what the listener hears at each phase: a 1 kHz tone where flite would speak, each phrase asked once")
    func ownSpeakerIsHeard() throws {
        let speaker = ToneSpeaker()
        let cache = GuideClipCache(speaker: speaker)
        let voiced = try Soundtrack.prepare(Self.request(guide: .init(cues: .voice)), guide: cache)
        let silent = try Soundtrack.prepare(Self.request(guide: .init(cues: .none)))
        let withTone = KitFixtures.renderToEnd(try voiced.makeRenderer())
        let without = KitFixtures.renderToEnd(try silent.makeRenderer())
        // 1 kHz energy (Goertzel) in the quarter second after the first exhale begins, with and without the guide.
        let exhale = try #require(voiced.schedule.phases.first { $0.kind == .exhale })
        func energy(_ samples: [Float]) -> Double {
            let start = Int(exhale.startFrame), count = 12_000
            let coefficient = 2 * cos(2 * Double.pi * 1000 / 48_000)
            var (previous, beforePrevious) = (0.0, 0.0)
            for frame in start..<(start + count) {
                let value = Double(samples[2 * frame]) + coefficient * previous - beforePrevious
                beforePrevious = previous
                previous = value
            }
            return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        }
        let ratio = 10 * log10(energy(withTone) / energy(without))
        #expect(ratio > 20, "the app's tone stands \(ratio) dB over the mix at 1 kHz")
        // Two cycles say each phase's word twice; the cache asks the speaker once per phrase.
        #expect(speaker.spoken.count == Set(speaker.spoken).count)
        _ = try Soundtrack.prepare(Self.request(guide: .init(cues: .voice)), guide: cache)
        #expect(speaker.spoken.count == Set(speaker.spoken).count, "a second soundtrack reuses the clips")
    }

    @Test("a speaker that answers fewer phrases than asked at once is asked for the rest one by one: the same sound as a whole answer")
    func shortAnswerIsCompleted() throws {
        let request = try Self.request(guide: .init(cues: .voice, count: .voice))
        let short = ShortAnsweringSpeaker()
        let completed = KitFixtures.renderToEnd(try Soundtrack.prepare(request, guide: GuideClipCache(speaker: short)).makeRenderer())
        let whole = KitFixtures.renderToEnd(try Soundtrack.prepare(request, guide: GuideClipCache(speaker: ToneSpeaker())).makeRenderer())
        // A Bool, not the arrays: a failing comparison of two million-sample arrays would be diffed for minutes.
        let sameSound = completed.elementsEqual(whole)
        #expect(sameSound)
        // More than one phrase, so the short answer really left some out.
        #expect(Set(short.tone.spoken).count > 1)
    }

    @Test("an existing file is kept unless overwrite: .output(.targetExists), its bytes untouched")
    func existingTarget() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("kept.wav")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path))
        let soundtrack = try Soundtrack.prepare(Self.request())
        #expect {
            _ = try soundtrack.write(to: .file(path: path, overwrite: false), spec: AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .wav))
        } throws: { error in
            guard case let .output(fault) = error as? SoundtrackError, case .targetExists = fault else { return false }
            return true
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("mine".utf8))
    }

    @Test("a file spec at another rate or channel count is refused as .output(.unsupported), nothing created")
    func mismatchedSpec() throws {
        let folder = try TemporaryFolder()
        let soundtrack = try Soundtrack.prepare(Self.request())
        #expect {
            _ = try soundtrack.write(to: .file(path: folder.file("x.wav"), overwrite: false), spec: AudioFileSpec(sampleRate: 44_100, channelCount: 2, format: .wav))
        } throws: { error in
            guard case let .output(fault) = error as? SoundtrackError, case .unsupported = fault else { return false }
            return true
        }
        #expect(folder.contents.isEmpty)
    }

    @Test("a bed damaged after prepare fails the write as .bed on one renderer and on a shared loop alike, leaving nothing")
    func bedDamagedDuringTheWrite() throws {
        let folder = try TemporaryFolder()
        // Longer than the session (38 s and the release), so it is streamed: sliced, its one loop is shared.
        let bed = try KitFixtures.writeBed(in: folder, seconds: 60)
        let soundtrack = try Soundtrack.prepare(Self.request(bed: bed))
        // Cut to its first half (about 30 s in, inside what the session hears) once prepare has measured it.
        let whole = try Data(contentsOf: URL(fileURLWithPath: bed))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: bed))
        for threads in [1, 2] {
            let target = folder.file("out\(threads).wav")
            #expect {
                _ = try soundtrack.write(
                    to: .file(path: target, overwrite: false), spec: AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .wav),
                    threads: threads)
            } throws: { error in
                if case .bed = error as? SoundtrackError { return true }
                return false
            }
        }
        #expect(folder.contents == ["bed.flac"], "\(folder.contents)")
    }

    @Test("a cancelled token stops the loudness pass and the write with .cancelled, leaving nothing at the target")
    func cancellation() throws {
        let source = CancellationSource()
        source.cancel()
        #expect(source.isCancelled)
        #expect { _ = try Soundtrack.prepare(Self.request(target: -16), cancel: source.token) } throws: { error in
            if case .cancelled = error as? SoundtrackError { return true }
            return false
        }
        let folder = try TemporaryFolder()
        let soundtrack = try Soundtrack.prepare(Self.request())
        // Cancelled part way: after the first progress report.
        let later = CancellationSource()
        #expect {
            _ = try soundtrack.write(
                to: .file(path: folder.file("out.flac"), overwrite: false), spec: AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .flac),
                progress: { fraction in if fraction > 0.2 { later.cancel() } }, cancel: later.token)
        } throws: { error in
            if case .cancelled = error as? SoundtrackError { return true }
            return false
        }
        #expect(folder.contents.isEmpty, "\(folder.contents)")
        // An uncancelled token lets the same write through.
        _ = try soundtrack.write(to: .file(path: folder.file("out.flac"), overwrite: false), spec: AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .flac))
        #expect(folder.contents == ["out.flac"])
    }

    @Test("the precedence rule: explicit over lesson over the soundscape's default")
    func precedence() {
        #expect(SoundtrackRequest.chosen(1, lesson: 2, soundscape: 3) == 1)
        #expect(SoundtrackRequest.chosen(nil, lesson: 2, soundscape: 3) == 2)
        #expect(SoundtrackRequest.chosen(nil, lesson: nil, soundscape: 3) == 3)
        #expect(SoundtrackRequest.chosen(Int?.none, lesson: nil, soundscape: nil) == nil)
    }
}
