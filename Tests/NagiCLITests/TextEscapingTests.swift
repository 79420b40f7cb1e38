import Foundation
import FoundationXML
@testable import NagiCLI
@testable import NagiOptions
@testable import NagiPlot
import NagiDocuments
import NagiKit
import Testing

/// JSON strings and SVG text share one scalar-by-scalar escaper; each format's table and control rule decide
/// what comes out.
@Suite("Escaping text for JSON and SVG")
struct TextEscapingTests {
    /// Every character either format treats specially, plus plain text and a non-ASCII scalar.
    let awkward = "a\"b\\c\nd\re\tf\u{1}g<h>&i\u{1F}é"

    @Test("a JSON string escapes quotes, backslashes and control characters, and reads back as the same text")
    func jsonQuoteRoundTrips() throws {
        let line = JSONOutput.line(["text": awkward])
        #expect(line.hasSuffix("}\n") && !line.dropLast().contains("\n"), "one line: \(line)")
        #expect(!line.unicodeScalars.dropLast().contains { $0.value < 0x20 }, "every control character escaped: \(line)")
        #expect(line.contains(#"a\"b\\c\nd\re\tf\u0001g<h>&i\u001fé"#), "\(line)")
        #expect(try JSONParser.parse(line, file: "test") == .object(["text": .string(awkward)], keys: ["text"]))
        let read = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        #expect(read == ["text": awkward])
    }

    @Test("SVG text escapes XML's reserved characters, keeps newline and tab, drops other control characters")
    func svgEscapeIsWellFormedXML() throws {
        let escaped = SVGWriter.escape(awkward)
        #expect(escaped == "a&quot;b\\c\nde\tfg&lt;h&gt;&amp;ié")
        let document = try XMLDocument(xmlString: "<t a=\"\(escaped)\">\(escaped)</t>")
        #expect(document.rootElement()?.stringValue == "a\"b\\c\nde\tfg<h>&ié")
    }
}
