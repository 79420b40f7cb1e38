/// The one rule for outside text that nagi shows: a title, description, artist or album from JSON or the command
/// line reaches tags, playlists, file names and the terminal, so it must read as what it is, on one line.
///
/// Refused (`firstHidden`): control characters (C0 with TAB, CR and LF, DEL, C1), format characters (bidi
/// controls such as U+202E that reorder what follows, zero-width characters such as U+200B and U+FEFF, the soft
/// hyphen) and the line and paragraph separators. The two joiners U+200C and U+200D stay: they shape the visible
/// text itself (emoji sequences, Persian and Indic words). Input that holds one is refused (64 from the command
/// line, 65 from a file, with its JSON path); where text is only shown, the same characters are escaped
/// (terminal) or dropped (file names, playlists).
public enum DisplayText {
    /// Whether `scalar` is one the rule refuses.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        case .format: scalar != "\u{200C}" && scalar != "\u{200D}"
        default: false
        }
    }

    /// The first character of `text` the rule refuses, or nil when there is none.
    public static func firstHidden(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isHidden)
    }

    /// Why `text` is refused ("holds U+202E: control characters and invisible ones (bidi controls, zero-width
    /// characters) are not allowed; write one line of visible text"), or nil when it is usable.
    public static func problem(in text: String) -> String? {
        firstHidden(in: text).map {
            "holds \(codePoint($0)): control characters and invisible ones (bidi controls, zero-width characters) are not allowed; write one line of visible text"
        }
    }

    /// `text` without the characters the rule refuses.
    public static func visible(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { !isHidden($0) }))
    }

    /// "U+001B": at least four hex digits.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
