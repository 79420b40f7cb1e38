import NagiDocuments
import Synth

extension SessionPlot {
    /// The caption of the beat's line (its style and rates); nil without a beat.
    var beatCaption: String? {
        guard let beat else { return nil }
        let rates = beat.startHz == beat.endHz ? "\(NumberText.fixed(beat.startHz, decimals: 1)) Hz"
            : "\(NumberText.fixed(beat.startHz, decimals: 1)) → \(NumberText.fixed(beat.endHz, decimals: 1)) Hz"
        return "\(beat.style.rawValue) beat \(rates) (dotted, 0 to 40 Hz up the panel)"
    }

    /// The beat's rate over the whole session (dotted, on a 0–40 Hz scale of the panel's height); nothing without
    /// a beat. Its caption is `beatCaption`, placed with the overview's others.
    func drawBeat(_ svg: inout SVGWriter, panel: Panel) {
        guard let beat else { return }
        let range = 0.0...Beat.frequencyRange.upperBound
        drawLine(&svg, panel: panel, name: "beat", range: range, cssClass: "beat") { beat.frequencyHz(at: $0, in: schedule) }
    }
}
