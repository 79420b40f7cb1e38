/// Makes a message safe to print as one line of standard error.
///
/// Messages quote what the user gave, and what the user gave can be hostile: a 2 MB preset name in
/// a JSON file, or a file name holding escape sequences. The line stays one line, shows no control
/// characters, and keeps its beginning (what was wrong) and end (what would be right) when a
/// long quoted token is cut from its middle.
enum ErrorLine {
    /// Longest line printed, in characters; longer messages lose their middle.
    static let maximumLength = 600

    /// `message` with control characters shown as `\n`, `\t` or `\u{…}`, and its middle
    /// replaced by `…[N characters left out]…` when it is longer than `maximumLength`.
    static func printable(_ message: String) -> String {
        var visible = ""
        visible.reserveCapacity(min(message.utf8.count, maximumLength * 4))
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\n": visible += "\\n"
            case "\r": visible += "\\r"
            case "\t": visible += "\\t"
            default:
                // C0, DEL and C1 controls would move the cursor or start an escape sequence;
                // bidi overrides would reorder what the user reads.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || isBidiControl(scalar.value) {
                    visible += "\\u{" + hex(scalar.value) + "}"
                } else {
                    visible.unicodeScalars.append(scalar)
                }
            }
        }
        let characters = Array(visible)
        guard characters.count > maximumLength else { return visible }
        let keptAtEachEnd = (maximumLength - 40) / 2
        let leftOut = characters.count - 2 * keptAtEachEnd
        return String(characters[..<keptAtEachEnd])
            + "…[\(leftOut) characters left out]…"
            + String(characters[(characters.count - keptAtEachEnd)...])
    }

    private static func isBidiControl(_ value: UInt32) -> Bool {
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F
    }

    private static func hex(_ value: UInt32) -> String {
        String(value, radix: 16, uppercase: true)
    }
}
