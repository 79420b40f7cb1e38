import Testing

@testable import Speech

@Suite struct SpeechPhraseTests {
    @Test func sixtyCharactersAreAcceptedAndSixtyOneRefused() throws {
        let sixty = String(repeating: "a", count: 59) + "."
        #expect(try SpeechPhrase(sixty).text == sixty)
        #expect(SpeechPhrase.problem(in: sixty + "b") == .tooLong(characterCount: 61))
        // Characters, not bytes: sixty accented letters are sixty characters.
        #expect(SpeechPhrase.problem(in: String(repeating: "é", count: 60)) == nil)
    }

    @Test func controlAndSeparatorCharactersAreRefused() {
        #expect(SpeechPhrase.problem(in: "breathe\nin") == .unprintable(scalar: 0x0A))
        #expect(SpeechPhrase.problem(in: "breathe\tin") == .unprintable(scalar: 0x09))
        #expect(SpeechPhrase.problem(in: "hold\u{202E}") == .unprintable(scalar: 0x202E))
        #expect(SpeechPhrase.problem(in: "hold\u{2028}on") == .unprintable(scalar: 0x2028))
        #expect(SpeechPhrase.problem(in: "hold\u{00A0}on") == .unprintable(scalar: 0xA0))
        #expect(SpeechPhraseError.unprintable(scalar: 0x0A).message == "unprintable character U+000A")
    }

    @Test func somethingMustBeSayable() {
        #expect(SpeechPhrase.problem(in: "") == .nothingToSay)
        #expect(SpeechPhrase.problem(in: "   ") == .nothingToSay)
        #expect(SpeechPhrase.problem(in: "... !") == .nothingToSay)
        #expect(SpeechPhrase.problem(in: "4") == nil)
        #expect(SpeechPhrase.problem(in: "breathe in") == nil)
    }
}
