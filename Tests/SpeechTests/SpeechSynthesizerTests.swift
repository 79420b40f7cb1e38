import NagiTestSupport
import Foundation
import Testing

@testable import Speech

/// flite is one process-wide resource and the cache's call count is global: these run one at a time.
@Suite(.serialized) struct SpeechSynthesizerTests {
    private func clip(_ text: String, _ voice: SpeechVoice = .slt, stretch: Double = 1.2) throws -> SpeechClip {
        try SpeechSynthesizer(voice: voice, durationStretch: stretch).speak(SpeechPhrase(text))
    }

    @Test(arguments: SpeechVoice.allCases)
    func phraseIsSpeechOfSaneLengthStartingAtItsFirstSample(voice: SpeechVoice) throws {
        let speech = try clip("breathe in", voice)
        let peak = speech.samples.map(abs).max() ?? 0
        #expect(speech.sampleRate == 16_000)
        // Two syllables at a calm pace: measured 0.42 (kal16) to 0.86 s (rms).
        #expect((0.3...1.5).contains(speech.durationSeconds), "\(speech.durationSeconds) s")
        #expect(peak > 0.1)
        // Audible from the start: within the first 5 ms the wave reaches 1 % of its peak, and the clip does not
        // open on a step (its first sample is near zero).
        let firstFiveMilliseconds = speech.samples[0..<80].map(abs).max() ?? 0
        #expect(firstFiveMilliseconds >= 0.01 * peak)
        #expect(abs(speech.samples[0]) <= 0.02 * peak)
        // Ends faded, without a step, and the last 30 ms still hold the word's tail rather than silence.
        #expect(abs(speech.samples[speech.samples.count - 1]) < 0.005 * peak)
        let tail = (speech.samples.count - 480)..<speech.samples.count
        #expect(Signal.rmsDecibels(speech.samples, tail) > 20 * log10(Double(peak)) - 60)
    }

    /// The formant band that carries the words holds a real share of the energy (the rest is the voice's
    /// fundamental, 150 to 300 Hz), at a level a renderer can set against a bed.
    @Test(arguments: SpeechVoice.allCases)
    func speechBandCarriesTheWords(voice: SpeechVoice) throws {
        let speech = try clip("breathe out", voice)
        let spectrum = Signal.powerSpectrum(speech.samples, sampleRate: speech.sampleRate)
        let share = Signal.bandShare(spectrum, lowHz: 300, highHz: 3_400)
        let bandLevel = Signal.rmsDecibels(speech.samples, speech.samples.indices) + 10 * log10(share)
        #expect(share > 0.1, "\(share)")
        #expect(bandLevel > -35, "\(bandLevel) dBFS")
        // Silence is not speech: the same measure on the same clip scaled down 40 dB falls by 40 dB.
        let quiet = speech.samples.map { $0 * 0.01 }
        let quietLevel = Signal.rmsDecibels(quiet, quiet.indices) + 10 * log10(share)
        #expect(abs(bandLevel - quietLevel - 40) < 0.01)
    }

    @Test func theFourVoicesSoundDifferent() throws {
        let profiles = try SpeechVoice.allCases.map { voice in
            Self.logProfile(try clip("hold", voice).samples)
        }
        for first in profiles.indices {
            for second in profiles.indices where second > first {
                let distance = Self.meanAbsoluteDifference(profiles[first], profiles[second])
                #expect(distance > 3, "\(SpeechVoice.allCases[first]) vs \(SpeechVoice.allCases[second]): \(distance) dB")
            }
        }
        // The measure is not noise: the same voice twice (the cache bypassed by another pace) is far closer.
        let again = Self.logProfile(try clip("hold", .slt, stretch: 1.21).samples)
        #expect(Self.meanAbsoluteDifference(profiles[0], again) < 3)
    }

    /// nagi's pace is slower than flite's own by the stretch asked for, on every voice.
    @Test(arguments: SpeechVoice.allCases)
    func defaultPaceIsSlowerThanFlites(voice: SpeechVoice) throws {
        let plain = try clip("breathe in and hold", voice, stretch: 1.0)
        let slowed = try clip("breathe in and hold", voice, stretch: SpeechSynthesizer.defaultDurationStretch)
        let ratio = slowed.durationSeconds / plain.durationSeconds
        #expect(abs(ratio - SpeechSynthesizer.defaultDurationStretch) < 0.04, "\(ratio)")
    }

    /// The `flite` tool, run with the same voice and stretch, writes the same samples, with its silence around them.
    @Test(arguments: [SpeechVoice.slt, .awb])
    func samplesMatchTheFliteTool(voice: SpeechVoice) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("tool.wav")
        let result = try Tool.run(
            "/usr/bin/flite", ["-voice", voice.rawValue, "--setf", "duration_stretch=1.2", "-t", "breathe out", "-o", path])
        #expect(result.status == 0)
        let tool = try Self.readPCM16WAV(path)
        let speech = try clip("breathe out", voice, stretch: 1.2)
        let unfaded = speech.samples.count - Int(0.010 * 16_000)
        let offset = try #require(
            (0..<(tool.count - unfaded)).first { start in
                tool[start] == speech.samples[0] && tool[start + 1] == speech.samples[1] && tool[start + 2] == speech.samples[2]
            })
        #expect(Array(tool[offset..<(offset + unfaded)]) == Array(speech.samples[0..<unfaded]))
        // What was cut is silence: below 1 % of the peak before the clip, and after it.
        let peak = speech.samples.map(abs).max() ?? 0
        #expect((tool[0..<offset].map(abs).max() ?? 0) < 0.01 * peak)
        #expect((tool[(offset + speech.samples.count)...].map(abs).max() ?? 0) < 0.01 * peak)
        #expect(offset > 800, "flite's leading silence, \(offset) samples, was expected to be cut")
    }

    @Test func eachPhraseIsSynthesizedOnce() throws {
        let phrase = try SpeechPhrase("settle, and breathe")
        let rms = SpeechSynthesizer(voice: .rms)
        let before = rms.synthesisCount(of: phrase)
        let first = try rms.speak(phrase)
        let second = try rms.speak(phrase)
        #expect(first == second)
        #expect(rms.synthesisCount(of: phrase) == before + 1)
        // Another voice is another clip.
        let awb = SpeechSynthesizer(voice: .awb)
        let awbBefore = awb.synthesisCount(of: phrase)
        #expect(try awb.speak(phrase) != first)
        #expect(awb.synthesisCount(of: phrase) == awbBefore + 1)
        #expect(rms.synthesisCount(of: phrase) == before + 1)
    }

    /// Many threads asking at once get exactly what one thread gets: the lock serializes flite, and each phrase is
    /// seeded alike whatever was spoken before it.
    @Test func concurrentRequestsMatchSerialOnes() async throws {
        let requests = (1...12).map { (text: "round \($0) begins", voice: $0 % 2 == 0 ? SpeechVoice.slt : .awb) }
        let serial = try requests.map { try clip($0.text, $0.voice) }
        SpeechSynthesizer(voice: .slt).removeCachedClips()
        SpeechSynthesizer(voice: .awb).removeCachedClips()
        let concurrent = try await withThrowingTaskGroup(of: (Int, SpeechClip).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    (index, try SpeechSynthesizer(voice: request.voice).speak(SpeechPhrase(request.text)))
                }
            }
            var clips: [Int: SpeechClip] = [:]
            for try await (index, clip) in group { clips[index] = clip }
            return clips
        }
        for index in requests.indices {
            #expect(concurrent[index] == serial[index], "\(requests[index].text)")
        }
    }

    @Test func accentedLettersAndTypographicPunctuationAreSpoken() throws {
        // Accented letters and typographic punctuation are printable: flite reads what it can.
        let speech = try clip("café — slowly, now", .slt)
        #expect(speech.durationSeconds > 0.5)
    }

    // MARK: - Measurements

    /// Log power (dB) in 25 Hz bins from 100 Hz to 4 kHz, normalized to the clip's total.
    private static func logProfile(_ samples: [Float]) -> [Double] {
        let spectrum = Signal.powerSpectrum(samples, sampleRate: 16_000)
        let total = spectrum.reduce(0, +)
        return (4...160).map { 10 * log10(spectrum[$0] / total + 1e-12) }
    }

    private static func meanAbsoluteDifference(_ a: [Double], _ b: [Double]) -> Double {
        zip(a, b).reduce(0.0) { $0 + abs($1.0 - $1.1) } / Double(a.count)
    }

    /// The samples of a 16-bit PCM WAV as flite writes it (a 44-byte header), scaled as nagi scales them.
    private static func readPCM16WAV(_ path: String) throws -> [Float] {
        let data = try #require(FileManager.default.contents(atPath: path))
        let pcm = Array(data.dropFirst(44))
        return stride(from: 0, to: pcm.count - 1, by: 2).map { index in
            Float(Int16(bitPattern: UInt16(pcm[index]) | UInt16(pcm[index + 1]) << 8)) / 32_768
        }
    }
}
