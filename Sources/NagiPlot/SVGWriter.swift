import NagiDocuments

/// Builds SVG text: elements with escaped text and compact numbers. No scripts, no outside references.
struct SVGWriter {
    private var text: String

    init(width: Double, height: Double) {
        text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\">\n"
    }

    mutating func raw(_ element: String) {
        text += element + "\n"
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, attributes: String) {
        raw("<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" \(attributes)/>")
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, attributes: String) {
        raw("<line x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\" y2=\"\(Self.number(y2))\" \(attributes)/>")
    }

    mutating func text(x: Double, y: Double, _ content: String, attributes: String = "") {
        raw("<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" \(attributes)>\(Self.escape(content))</text>")
    }

    func finish() -> String {
        text + "</svg>\n"
    }

    /// A coordinate with two decimals.
    static func number(_ value: Double) -> String {
        NumberText.fixed(value, decimals: 2)
    }

    /// A value exactly as the renderer computed it (the shortest text that reads back to the same Double).
    static func precise(_ value: Double) -> String {
        value.isFinite ? String(value) : "0"
    }

    /// Escapes text for XML content and attributes; control characters XML 1.0 cannot hold are dropped.
    static func escape(_ text: String) -> String {
        xmlEscaping.escaping(text)
    }

    /// The characters XML content and attributes escape, and the two control characters it keeps as they are.
    private static let xmlEscaping = TextEscaping(
        ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "\n": "\n", "\t": "\t"], control: { _ in "" })
}
