import NagiBase
import NagiTestSupport
import Foundation
import Speech
import Testing

@testable import GuideSources

@Suite struct SpokenCueTests {
    /// At the session rate the words keep their length and their speech band, and still start at frame 0.
    @Test(arguments: [44_100, 48_000, 96_000])
    func wordsAtTheSessionRate(sampleRate: Int) throws {
        let phrase = try SpeechPhrase("breathe out")
        let native = try SpeechSynthesizer().speak(phrase)
        let clip = try SpokenCue.clip(phrase, sampleRate: sampleRate)
        #expect(clip.channelCount == 1 && clip.sampleRate == sampleRate)
        #expect(clip.frameCount == Int((Double(native.frameCount) * Double(sampleRate) / 16_000).rounded()))
        let peak = clip.samples.map(abs).max() ?? 0
        let firstFiveMilliseconds = clip.samples[0..<(sampleRate / 200)].map(abs).max() ?? 0
        #expect(firstFiveMilliseconds >= 0.01 * peak)
        #expect(abs(clip.samples[0]) <= 0.03 * peak)
        // The speech band holds the same share of the energy as at flite's rate, and nothing appears above 8 kHz
        // (flite's Nyquist frequency): resampling added no images.
        let nativeShare = Signal.bandShare(Signal.powerSpectrum(native.samples, sampleRate: 16_000), lowHz: 300, highHz: 3_400)
        let spectrum = Signal.powerSpectrum(clip.samples, sampleRate: sampleRate, binHz: 50)
        let share = Signal.bandShare(spectrum, binHz: 50, lowHz: 300, highHz: 3_400)
        #expect(abs(share - nativeShare) < 0.02, "\(share) against \(nativeShare)")
        #expect(Signal.bandShare(spectrum, binHz: 50, lowHz: 8_200, highHz: sampleRate / 2) < 1e-6)
    }

    @Test func textFliteReadsAsSilenceIsADataError() throws {
        // Printable, with a letter, but nothing flite can pronounce.
        let phrase = try SpeechPhrase("ꙮ")
        let error = try #require(throws: SpokenCueError.self) { try SpokenCue.clip(phrase, sampleRate: 48_000) }
        #expect(error.category == .badData)
        #expect(error.message.contains("ꙮ"))
    }
}
