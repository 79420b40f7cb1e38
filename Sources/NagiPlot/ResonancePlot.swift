import Breath
import HeartRhythm
import NagiDocuments

/// Draws a resonance analysis as SVG in `nagi plot`'s look: heart rate over the session with its steps shaded
/// (the analysed part of each darker) and the paced breathing drawn under it. Curves carry their samples as
/// `data-seconds` / `data-values`, so the drawing can be checked.
public struct ResonancePlot {
    public let report: ResonanceReport
    public let breathing: PacedBreathing
    public let title: String
    public let subtitle: String

    /// "best: 5.5 breaths/min, clearly", or "no verdict: …" when the record does not follow the session.
    var verdictText: String {
        report.bestIndex == nil ? report.verdict : "best: \(report.verdict)"
    }

    public init(report: ResonanceReport, breathing: PacedBreathing, title: String, subtitle: String) {
        self.report = report
        self.breathing = breathing
        self.title = title
        self.subtitle = subtitle
    }

    static let width = SessionPlot.width
    /// The most points a curve holds: a long session's curves are decimated to this.
    static let maximumPointCount = 3000

    /// A strip of the drawing whose time axis runs from 0 to `endSeconds`.
    struct Panel: PlotPanel {
        var top: Double
        var height: Double
        var endSeconds: Double

        func x(_ seconds: Double) -> Double {
            left + plotWidth * min(1, max(0, seconds / max(1e-9, endSeconds)))
        }
    }

    /// The whole drawing as SVG text.
    public func svg() -> String {
        let sessionSeconds = breathing.durationSeconds
        let heartPanel = Panel(top: 90, height: 260, endSeconds: sessionSeconds)
        let breathPanel = Panel(top: 400, height: 80, endSeconds: sessionSeconds)
        let height = 560.0
        var svg = SVGWriter(width: Self.width, height: height)
        svg.raw("<title>\(SVGWriter.escape(title))</title>")
        svg.raw("<desc>\(SVGWriter.escape("nagi resonance analyze of \(subtitle): \(report.steps.count) steps, \(verdictText)"))</desc>")
        svg.raw(#"<style>polyline{fill:none}text{font-family:sans-serif;font-size:12px;fill:#223}.title{font-size:18px;font-weight:bold}.axis{stroke:#99a;stroke-width:1}.step{fill:#eef2f8}.step-alternate{fill:#e2e8f2}.window{fill:#cfe6ff;fill-opacity:0.6}.best{fill:#d8f2dc}.heart{stroke:#c0392b;stroke-width:1.4}.level{fill:none;stroke:#2a5f99;stroke-width:1.5}.step-label{text-anchor:middle;font-size:11px}</style>"#)
        svg.rect(x: 0, y: 0, width: Self.width, height: height, attributes: ##"fill="#fbfbfd""##)
        svg.text(x: SessionPlot.marginLeft, y: 32, title, attributes: #"class="title""#)
        svg.text(x: SessionPlot.marginLeft, y: 52, "\(subtitle) · \(verdictText)")

        let (seconds, values) = heartRateCurve(sessionSeconds: sessionSeconds)
        let axis = NiceAxis(covering: (values.min() ?? 50)...(values.max() ?? 90))
        for (index, step) in breathing.steps.enumerated() {
            let x0 = heartPanel.x(step.startSeconds), x1 = heartPanel.x(step.endSeconds)
            svg.rect(x: x0, y: heartPanel.top, width: x1 - x0, height: heartPanel.height, attributes: "class=\"\(index % 2 == 0 ? "step" : "step-alternate")\"")
            if index < report.steps.count {
                let metrics = report.steps[index]
                let w0 = heartPanel.x(metrics.startSeconds)
                let windowClass = index == report.bestIndex ? "best" : "window"
                svg.rect(x: w0, y: heartPanel.top, width: max(0, x1 - w0), height: heartPanel.height, attributes: "class=\"\(windowClass)\" data-step=\"\(SVGWriter.escape(step.label))\" data-start-seconds=\"\(SVGWriter.precise(metrics.startSeconds))\" data-end-seconds=\"\(SVGWriter.precise(metrics.endSeconds))\"")
                svg.text(x: (x0 + x1) / 2, y: heartPanel.top + 16, step.label, attributes: #"class="step-label""#)
                svg.text(x: (x0 + x1) / 2, y: heartPanel.top + 30, "±\(NumberText.fixed(metrics.peakToTrough / 2, decimals: 1)) bpm", attributes: #"class="step-label""#)
            }
        }
        svg.rect(x: heartPanel.left, y: heartPanel.top, width: heartPanel.plotWidth, height: heartPanel.height, attributes: #"fill="none" class="axis""#)
        svg.text(x: heartPanel.left, y: heartPanel.top - 8, "Heart rate (beats a minute) over the session; each step's analysed part shaded, the best in green")
        drawValueAxis(&svg, panel: heartPanel, axis: axis, label: "heart rate", name: "heart-rate")
        drawCurve(&svg, panel: heartPanel, name: "heart-rate", cssClass: "heart", seconds: seconds, values: values, range: axis.range)

        let levels = seconds.map { breathing.level(atSeconds: $0) }
        svg.rect(x: breathPanel.left, y: breathPanel.top, width: breathPanel.plotWidth, height: breathPanel.height, attributes: #"fill="none" class="axis""#)
        svg.text(x: breathPanel.left, y: breathPanel.top - 8, "Paced breathing: horizon level L (0 exhaled, 1 inhaled)")
        drawValueAxis(&svg, panel: breathPanel, axis: NiceAxis(covering: 0...1, targetTickCount: 3), label: "L", name: "level")
        drawCurve(&svg, panel: breathPanel, name: "level", cssClass: "level", seconds: seconds, values: levels, range: 0...1)
        drawTimeAxis(&svg, panel: breathPanel)
        svg.text(x: SessionPlot.marginLeft, y: height - 22, "session starts \(NumberText.fixed(report.offsetSeconds, decimals: 1)) s into the record · \(report.artefactCount) of \(report.beatCount) beats replaced as artefacts")
        return svg.finish()
    }

    /// Heart rate at session times, decimated to at most `maximumPointCount` points.
    func heartRateCurve(sessionSeconds: Double) -> ([Double], [Double]) {
        let rate = ResonanceReport.sampleRateHz
        let count = Int(sessionSeconds * rate)
        let stride = max(1, count / Self.maximumPointCount)
        var seconds: [Double] = []
        var values: [Double] = []
        for index in Swift.stride(from: 0, to: count, by: stride) {
            let recordIndex = Int((report.offsetSeconds * rate).rounded()) + index
            guard report.heartRate.indices.contains(recordIndex) else { continue }
            seconds.append(Double(index) / rate)
            values.append(report.heartRate[recordIndex])
        }
        return (seconds, values)
    }

    func drawCurve(_ svg: inout SVGWriter, panel: Panel, name: String, cssClass: String, seconds: [Double], values: [Double], range: ClosedRange<Double>) {
        let points = zip(seconds, values).map { "\(SVGWriter.number(panel.x($0))),\(SVGWriter.number(panel.y($1, in: range)))" }
        svg.raw("<polyline class=\"\(cssClass)\" data-curve=\"\(name)\" data-seconds=\"\(seconds.map(SVGWriter.precise).joined(separator: " "))\" data-values=\"\(values.map(SVGWriter.precise).joined(separator: " "))\" points=\"\(points.joined(separator: " "))\"/>")
    }

    func drawValueAxis(_ svg: inout SVGWriter, panel: Panel, axis: NiceAxis, label: String, name: String) {
        for value in axis.ticks {
            let y = panel.y(value, in: axis.range)
            svg.line(x1: panel.left, y1: y, x2: panel.left - 4, y2: y, attributes: "class=\"axis\" data-axis=\"\(name)\" data-tick=\"\(axis.label(value))\"")
            svg.text(x: panel.left - 9, y: y + 4, axis.label(value), attributes: #"text-anchor="end""#)
        }
        let labelX = panel.left - 50, middle = panel.top + panel.height / 2
        svg.text(x: labelX, y: middle, label, attributes: "text-anchor=\"middle\" transform=\"rotate(-90 \(SVGWriter.number(labelX)) \(SVGWriter.number(middle)))\"")
    }

    func drawTimeAxis(_ svg: inout SVGWriter, panel: Panel) {
        let steps = [10.0, 30, 60, 120, 300, 600, 900, 1800, 3600]
        let step = steps.first { panel.endSeconds / $0 <= 12 } ?? 7200
        var tick = 0.0
        while tick <= panel.endSeconds + 1e-9 {
            let x = panel.x(tick)
            svg.line(x1: x, y1: panel.top + panel.height, x2: x, y2: panel.top + panel.height + 5, attributes: #"class="axis""#)
            svg.text(x: x, y: panel.top + panel.height + 18, String(Microseconds.formatClock(Int64(tick * 1_000_000)).dropLast(4)), attributes: #"text-anchor="middle""#)
            tick += step
        }
    }
}
