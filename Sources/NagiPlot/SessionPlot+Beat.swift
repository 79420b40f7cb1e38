import NagiDocuments
import Synth

extension SessionPlot {
    /// The beat's rate over the whole session (dotted, on a 0–40 Hz scale of the panel's height), labelled
    /// with its style and rates; nothing without a beat.
    func drawBeat(_ svg: inout SVGWriter, panel: Panel) {
        guard let beat else { return }
        let range = 0.0...Beat.frequencyRange.upperBound
        let rates = beat.startHz == beat.endHz ? "\(NumberText.fixed(beat.startHz, decimals: 1)) Hz"
            : "\(NumberText.fixed(beat.startHz, decimals: 1)) → \(NumberText.fixed(beat.endHz, decimals: 1)) Hz"
        svg.text(x: panel.left + panel.plotWidth, y: panel.top - 8, "\(beat.style.rawValue) beat \(rates) (dotted, 0 to 40 Hz up the panel)", attributes: #"text-anchor="end""#)
        drawLine(&svg, panel: panel, name: "beat", range: range, cssClass: "beat") { beat.frequencyHz(at: $0, in: schedule) }
    }
}
