/// Makes a message safe to print as one line of standard error.
///
/// Messages quote what the user gave, and what the user gave can be hostile: a 2 MB preset name in
/// a JSON file, or a file name holding escape sequences. The line stays one line, shows no control
/// characters, and keeps its beginning (what was wrong) and end (what would be right) when a
/// long quoted token is cut from its middle.
package enum ErrorLine {
    /// Longest line printed, in characters; longer messages lose their middle.
    package static let maximumLength = 600

    /// `message` with control characters shown as `\n`, `\t` or `\u{…}`, and its middle
    /// replaced by `…[N characters left out]…` when it is longer than `maximumLength`.
    package static func printable(_ message: String) -> String {
        let visible = TerminalText.printable(message)
        let characters = Array(visible)
        guard characters.count > maximumLength else { return visible }
        let keptAtEachEnd = (maximumLength - 40) / 2
        let leftOut = characters.count - 2 * keptAtEachEnd
        return String(characters[..<keptAtEachEnd])
            + "…[\(leftOut) characters left out]…"
            + String(characters[(characters.count - keptAtEachEnd)...])
    }
}
