import Breath

/// Words for the spoken guide, checked: 1 to 60 characters of printable text with at least one letter or digit.
///
/// Printable means what `SpokenText.isPrintable` says (Breath owns the rule), so a character a pattern's
/// `"say"` field refuses is refused here too.
public struct SpeechPhrase: Hashable, Sendable, CustomStringConvertible {
    /// The longest phrase, in characters: about three seconds of speech, more than any phase word needs.
    public static let maximumCharacterCount = SpokenText.characterLimit

    /// The phrase as given.
    public let text: String

    /// - Throws: `SpeechPhraseError` naming what is wrong.
    public init(_ text: String) throws(SpeechPhraseError) {
        if let error = Self.problem(in: text) { throw error }
        self.text = text
    }

    /// What is wrong with `text` as a phrase, or nil when it can be spoken.
    public static func problem(in text: String) -> SpeechPhraseError? {
        if text.count > maximumCharacterCount { return .tooLong(characterCount: text.count) }
        for scalar in text.unicodeScalars where !SpokenText.isPrintable(scalar) {
            return .unprintable(scalar: scalar.value)
        }
        guard text.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil })
        else { return .nothingToSay }
        return nil
    }

    public var description: String { text }
}

/// Why a text cannot be a spoken phrase.
public enum SpeechPhraseError: Error, Equatable, Sendable {
    /// More than `SpeechPhrase.maximumCharacterCount` characters.
    case tooLong(characterCount: Int)
    /// A control or other unprintable character (its code point), e.g. a newline or tab.
    case unprintable(scalar: UInt32)
    /// Empty, or only spaces and punctuation.
    case nothingToSay

    /// One line for a human, to follow the phrase's location ("pattern.json: phases[1].say: ...").
    public var message: String {
        switch self {
        case .tooLong(let count):
            return "\(count) characters; a phrase has at most \(SpeechPhrase.maximumCharacterCount)"
        case .unprintable(let scalar):
            let hex = String(scalar, radix: 16, uppercase: true)
            return "unprintable character U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)"
        case .nothingToSay:
            return "no letter or digit to speak"
        }
    }
}
