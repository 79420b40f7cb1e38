import Foundation
import FoundationXML
@testable import NagiCLI
@testable import NagiOptions
@testable import NagiPlot
import NagiDocuments
import NagiDocuments
import Testing

/// JSON strings and SVG text share one scalar-by-scalar escaper; each format's table and control rule decide
/// what comes out.
@Suite("Escaping text for JSON and SVG")
struct TextEscapingTests {
    /// Every character either format treats specially, plus plain text and a non-ASCII scalar.
    let awkward = "a\"b\\c\nd\re\tf\u{1}g<h>&i\u{1F}é"

    @Test("a JSON string escapes quotes, backslashes and control characters, and reads back as the same text")
    func jsonQuoteRoundTrips() throws {
        let quoted = JSONText.quote(awkward)
        #expect(quoted == #""a\"b\\c\nd\re\tf\u0001g<h>&i\u001fé""#)
        #expect(try JSONParser.parse(quoted, file: "test") == .string(awkward))
    }

    @Test("SVG text escapes XML's reserved characters, keeps newline and tab, drops other control characters")
    func svgEscapeIsWellFormedXML() throws {
        let escaped = SVGWriter.escape(awkward)
        #expect(escaped == "a&quot;b\\c\nde\tfg&lt;h&gt;&amp;ié")
        let document = try XMLDocument(xmlString: "<t a=\"\(escaped)\">\(escaped)</t>")
        #expect(document.rootElement()?.stringValue == "a\"b\\c\nde\tfg<h>&ié")
    }
}
