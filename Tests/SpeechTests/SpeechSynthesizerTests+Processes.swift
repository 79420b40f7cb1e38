import Foundation
import Testing

@testable import Speech

/// Phrases spoken in several processes at once (`speakAll`, `ForkedSpeaker`): the same samples as one by one in
/// this process, each phrase spoken once, and a child that dies costs nothing but time.
extension SpeechSynthesizerTests {
    /// Phrases of different lengths, one twice: more phrases than processes, so every share holds several.
    static let guidePhrases = [
        "breathe in", "hold", "breathe out", "two", "three", "four", "five", "hold", "round two begins now", "seven",
    ]

    /// slt excites its unvoiced sounds with libc's rand (seeded per phrase, in the child as here); kal16 is a
    /// diphone voice with no randomness: both must come back from the children bit for bit.
    ///
    /// At a pace no other test speaks at, so no test running alongside can cache these phrases (or forget them)
    /// between the steps counted here: with nagi's own pace, another test's "hold" once made it here from the
    /// cache and the count came out one short.
    @Test(arguments: [SpeechVoice.slt, .kal16])
    func speakingInProcessesGivesTheSamplesSpokenHere(voice: SpeechVoice) throws {
        let phrases = try Self.guidePhrases.map { try SpeechPhrase($0) }
        let synthesizer = SpeechSynthesizer(voice: voice, durationStretch: 1.15)
        synthesizer.removeCachedClips()
        let here = try phrases.map { try synthesizer.speak($0) }
        synthesizer.removeCachedClips()
        let countsBefore = phrases.map { synthesizer.synthesisCount(of: $0) }
        let spread = synthesizer.speakAll(phrases, processCount: 3)
        for (index, phrase) in phrases.enumerated() {
            #expect(try spread[index].get() == here[index], "\(phrase.text)")
            // Once each, in whichever process: the repeated "hold" is not spoken twice.
            #expect(synthesizer.synthesisCount(of: phrase) == countsBefore[index] + 1, "\(phrase.text)")
        }
        // Served from the cache afterwards: no process speaks them again.
        _ = synthesizer.speakAll(phrases, processCount: 3)
        for (index, phrase) in phrases.enumerated() {
            #expect(synthesizer.synthesisCount(of: phrase) == countsBefore[index] + 1, "\(phrase.text)")
        }
    }

    /// A child's waves are flite's own for those phrases; a child killed before it says anything delivers
    /// nothing (the caller then speaks its share itself) and is reaped either way: no zombie is left.
    @Test func childDeliversFlitesWavesAndIsAlwaysReaped() throws {
        let texts = ["breathe in", "hold", "breathe out"]
        let outcome = SpeechSynthesizer(voice: .slt).withVoice { voice -> (waves: [ForkedSpeaker.Wave], reaped: Bool, killedWaves: Int, killedReaped: Bool)? in
            guard let child = ForkedSpeaker(voice: voice, texts: texts) else { return nil }
            let waves = child.collect()
            let reaped = waitpid(child.child, nil, WNOHANG) == -1 && errno == ECHILD
            guard let killed = ForkedSpeaker(voice: voice, texts: texts) else { return nil }
            kill(killed.child, SIGKILL)
            let killedWaves = killed.collect().count
            return (waves, reaped, killedWaves, waitpid(killed.child, nil, WNOHANG) == -1 && errno == ECHILD)
        }
        let result = try #require(outcome ?? nil)
        #expect(result.waves.count == texts.count)
        #expect(result.reaped)
        for wave in result.waves {
            #expect(wave.sampleRate == 16_000)
            #expect((4_000...40_000).contains(wave.samples.count), "\(wave.samples.count) samples")
            #expect((wave.samples.map { abs(Int($0)) }.max() ?? 0) > 1_000)
        }
        // flite's wave as spoken here, once its silence is trimmed as `speak` trims it.
        let here = try SpeechSynthesizer(voice: .slt).speak(SpeechPhrase("hold"))
        let child = SilenceTrim.trimmed(result.waves[1].samples.map { Float($0) / 32_768 }, sampleRate: 16_000)
        #expect(child == here.samples)
        #expect(result.killedWaves < texts.count)
        #expect(result.killedReaped)
    }

    /// The records on the pipe are read up to the first that is cut short or is not a mono wave.
    @Test func recordsAreReadUpToTheFirstIncompleteOne() {
        func record(spoken: Int32 = 1, rate: Int32 = 16_000, channels: Int32 = 1, samples: [Int16]) -> [UInt8] {
            var bytes: [UInt8] = []
            for field in [spoken, rate, channels, Int32(samples.count)] { withUnsafeBytes(of: field) { bytes += $0 } }
            for sample in samples { withUnsafeBytes(of: sample) { bytes += $0 } }
            return bytes
        }
        let first = record(samples: [1, -2, 3])
        let second = record(samples: [400, -500])
        #expect(ForkedSpeaker.waves(in: first + second).map(\.samples) == [[1, -2, 3], [400, -500]])
        #expect(ForkedSpeaker.waves(in: first + second.dropLast()).map(\.samples) == [[1, -2, 3]])
        #expect(ForkedSpeaker.waves(in: first + record(spoken: 0, rate: 0, channels: 0, samples: []) + second).count == 1)
        #expect(ForkedSpeaker.waves(in: record(channels: 2, samples: [1, 2]) + first).isEmpty)
        #expect(ForkedSpeaker.waves(in: []).isEmpty)
    }
}
