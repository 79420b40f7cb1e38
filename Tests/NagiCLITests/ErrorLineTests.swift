import Testing
@testable import NagiCLI
@testable import NagiOptions

@Suite("ErrorLine: one printable line of bounded length")
struct ErrorLineTests {
    @Test func shortPlainMessagesAreUnchanged() {
        let message = "no pattern named 'boxx' (did you mean 'box'?)"
        #expect(ErrorLine.printable(message) == message)
    }

    @Test func controlCharactersAreShownNotSent() {
        let line = ErrorLine.printable("cannot read 'a\u{1B}[2Jb\nc\td\u{7F}\u{9B}e\u{202E}f'")
        #expect(line == #"cannot read 'a\u{1B}[2Jb\nc\td\u{7F}\u{9B}e\u{202E}f'"#)
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }

    @Test func longTokensLoseTheirMiddleButKeepBothEnds() throws {
        let token = "start" + String(repeating: "x", count: 2_000_000) + "end"
        let line = ErrorLine.printable("no pattern named '\(token)'; `nagi presets` lists them")
        #expect(line.count <= ErrorLine.maximumLength + 40)
        #expect(line.hasPrefix("no pattern named 'startxxx"))
        #expect(line.hasSuffix("xxxend'; `nagi presets` lists them"))
        // The marker counts exactly what was cut: kept characters plus left-out ones give the whole.
        let message = "no pattern named '\(token)'; `nagi presets` lists them"
        let marker = try #require(line.firstRange(of: "…["))
        let count = try #require(Int(line[marker.upperBound...].prefix { $0.isNumber }))
        let markerText = "…[\(count) characters left out]…"
        #expect(line.count - markerText.count + count == message.count)
    }

    @Test func aMessageExactlyAtTheLimitIsKept() {
        let message = String(repeating: "a", count: ErrorLine.maximumLength)
        #expect(ErrorLine.printable(message) == message)
        #expect(ErrorLine.printable(message + "b") != message + "b")
    }
}
