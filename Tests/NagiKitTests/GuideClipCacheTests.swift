import Foundation
@testable import NagiKit
import Synth
import Testing

/// A speaker that writes down, in one log with the caller's hook, when it is asked for phrases.
private final class LoggingSpeaker: PhraseSpeaker, @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    var log: [String] { lock.withLock { entries } }

    func note(_ entry: String) {
        lock.withLock { entries.append(entry) }
    }

    func speak(_ text: String, voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [Float] {
        note("speak")
        return [Float](repeating: 0.25, count: sampleRate / 10)
    }

    func speakAll(_ texts: [String], voice: SpeechVoice, sampleRate: Int) throws(SoundtrackError) -> [[Float]] {
        note("speakAll \(texts.count)")
        return texts.map { [Float](repeating: 0.25, count: sampleRate / 10 + $0.count) }
    }
}

/// `GuideClipCache.clips(beforeSpeaking:)`: `Soundtrack.prepare` ends the thread reading a held bed there, because
/// flite's speaking processes are forked and no other thread of the process may run then; with nothing left to
/// speak the thread reads on while the plan compiles.
@Suite("NagiKit: the guide's clips say when speaking begins")
struct GuideClipCacheTests {
    @Test("the hook runs once, before the speaker is asked for the phrases the cache lacks, and not when it lacks none")
    func hookPrecedesSpeaking() throws {
        let schedule = try KitFixtures.schedule(cycles: 2)
        let soundscape = try BuiltinLibrary.soundscape(named: "horizon")
        let guide = SoundtrackRequest.Guide(cues: .voice)
        let settings = RenderSettings(
            soundscape: soundscape, channelCount: 2, seed: 1, cues: guide.cues, count: guide.count, cueVolumeDecibels: guide.cueVolumeDecibels)
        let speaker = LoggingSpeaker()
        let cache = GuideClipCache(speaker: speaker)
        let first = try cache.clips(for: guide, schedule: schedule, settings: settings, beforeSpeaking: { speaker.note("hook") })
        let log = speaker.log
        #expect(!first.phrases.isEmpty, "a voiced guide has phrases")
        #expect(log.first == "hook", "the hook ran before the speaker was asked: \(log)")
        #expect(log.filter { $0 == "hook" }.count == 1, "once: \(log)")
        #expect(log.contains("speakAll \(first.phrases.count)"), "every phrase asked in one go: \(log)")
        // Every phrase is cached now: nothing is spoken, so the hook does not run.
        let second = try cache.clips(for: guide, schedule: schedule, settings: settings, beforeSpeaking: { speaker.note("hook") })
        #expect(second.phrases.count == first.phrases.count)
        #expect(!speaker.log.dropFirst(log.count).contains("hook"), "nothing to speak, no hook: \(speaker.log)")
        // A guide without words speaks nothing either.
        let chimes = SoundtrackRequest.Guide(cues: .chimes)
        let chimeSettings = RenderSettings(
            soundscape: soundscape, channelCount: 2, seed: 1, cues: chimes.cues, count: chimes.count, cueVolumeDecibels: chimes.cueVolumeDecibels)
        let before = speaker.log.count
        _ = try GuideClipCache(speaker: speaker).clips(for: chimes, schedule: schedule, settings: chimeSettings, beforeSpeaking: { speaker.note("hook") })
        #expect(!speaker.log.dropFirst(before).contains("hook"), "chimes alone, no hook: \(speaker.log)")
    }
}
