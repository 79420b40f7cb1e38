import NagiBase

/// The rule for words a guide will speak or show: a phase's `"say"`, a stage's label and announcement.
///
/// The text reaches flite and the terminal, so it stays one short line of visible characters: a control,
/// format (bidi, zero-width) or separator character would reorder or hide what the user reads, and a long
/// phrase would not fit the phase it belongs to.
public enum SpokenText {
    /// The most characters (grapheme clusters) a phrase may hold.
    public static let characterLimit = 60

    /// Why `text` is not usable, or nil when it is.
    public static func problem(in text: String) -> String? {
        if text.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
            return "expected some words, found an empty phrase"
        }
        for scalar in text.unicodeScalars where !isPrintable(scalar) {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "the phrase holds U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex), which is not printable; use plain words"
        }
        let count = text.count
        if count > characterLimit {
            return "the phrase has \(count) characters; at most \(characterLimit) fit a spoken cue"
        }
        return nil
    }

    /// Whether `scalar` shows as itself on one line: none of the characters `DisplayText` refuses in any shown
    /// text, and for flite (which would read some aloud, choke on others) no joiners either, no separators other
    /// than the plain space, no private-use or unassigned code points.
    public static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        guard !DisplayText.isHidden(scalar) else { return false }
        switch scalar.properties.generalCategory {
        case .format, .surrogate, .privateUse, .unassigned:
            return false
        case .spaceSeparator:
            return scalar == " "
        default:
            return true
        }
    }
}
