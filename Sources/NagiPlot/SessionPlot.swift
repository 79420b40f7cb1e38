import Breath
import NagiDocuments
import Synth

/// Draws a session's plan as SVG. Every curve is sampled from `ControlCurves` (the renderer's own control
/// functions) and carries its samples as `data-frames` / `data-values`, so the drawing can be checked.
public struct SessionPlot {
    /// The schedule drawn.
    public let schedule: Schedule
    /// The curves the sound follows over it.
    public let curves: ControlCurves
    /// The heading.
    public let title: String
    /// The line under the heading.
    public let subtitle: String
    /// The beat on the tone, drawn over the overview when there is one.
    public var beat: Beat? = nil
    /// The words spoken on each phase's first frame (parallel to the phases; empty strings where none), drawn
    /// under the cue marks.
    public var cueWords: [String] = []
    /// The level of a bed under the session (LU against −20 LUFS), drawn in the overview; nil for none.
    public var bedLevelDecibels: Double? = nil
    /// A countdown before the breathing and an ending after it, drawn in the overview as shaded stretches outside
    /// the phases (its frames are the output's; the plot's stay the schedule's, so the lead-in is drawn before 0).
    public var framing: SessionFraming? = nil

    /// A plot of `schedule` following `curves`.
    public init(schedule: Schedule, curves: ControlCurves, title: String, subtitle: String, beat: Beat? = nil, cueWords: [String] = [], bedLevelDecibels: Double? = nil) {
        self.schedule = schedule
        self.curves = curves
        self.title = title
        self.subtitle = subtitle
        self.beat = beat
        self.cueWords = cueWords
        self.bedLevelDecibels = bedLevelDecibels
    }

    /// Canvas width in px.
    static let width = 1200.0
    static let marginLeft = 70.0
    static let marginRight = 70.0
    /// Samples per curve: dense enough to look smooth.
    static let sampleCount = 600

    /// A horizontal strip of the plot: a time window drawn into a box.
    struct Panel: PlotPanel {
        var top: Double
        var height: Double
        var startFrame: Int64
        var endFrame: Int64

        func x(_ frame: Int64) -> Double {
            let span = max(1, endFrame - startFrame)
            return left + plotWidth * Double(frame - startFrame) / Double(span)
        }
    }

    /// The end of the detail window: the first three cycles, or the first minute when cycles are long.
    var detailEndFrame: Int64 {
        let threeCycles = schedule.phases.last { $0.cycleIndex < 3 }?.endFrame ?? schedule.totalFrames
        let minute = Int64(schedule.sampleRate) * 60
        return max(1, min(schedule.totalFrames, max(min(threeCycles, minute * 2), min(minute, schedule.totalFrames))))
    }

    /// The whole drawing as SVG text.
    public func svg() -> String {
        let detailEnd = detailEndFrame
        let levelPanel = Panel(top: 80, height: 150, startFrame: 0, endFrame: detailEnd)
        let tonePanel = Panel(top: 290, height: 130, startFrame: 0, endFrame: detailEnd)
        let modulationPanel = Panel(top: 480, height: 100, startFrame: 0, endFrame: detailEnd)
        let outside = framing.flatMap { $0.isEmpty ? nil : $0 }
        let overviewPanel = Panel(
            top: 660, height: 130, startFrame: -(outside?.leadInFrameCount ?? 0),
            endFrame: outside.map { $0.totalFrameCount - $0.leadInFrameCount } ?? max(1, schedule.totalFrames))
        let height = 850.0

        var svg = SVGWriter(width: Self.width, height: height)
        svg.raw("<title>\(SVGWriter.escape(title))</title>")
        svg.raw("<desc>\(SVGWriter.escape("nagi plot of \(subtitle): \(schedule.phases.count) phases, \(schedule.cycleCount) cycles, \(schedule.sampleRate) Hz"))</desc>")
        svg.raw(#"<style>polyline{fill:none}text{font-family:sans-serif;font-size:12px;fill:#223}.title{font-size:18px;font-weight:bold}.axis{stroke:#99a;stroke-width:1}.grid{stroke:#dde;stroke-width:1}.band-inhale{fill:#cfe6ff}.band-hold{fill:#fff1c7}.band-exhale{fill:#d8f2dc}.level{fill:#3f7fbf;fill-opacity:0.35;stroke:#2a5f99;stroke-width:1.5}.pitch{fill:none;stroke:#c0392b;stroke-width:1.8}.gain{fill:none;stroke:#7d3c98;stroke-width:1.5;stroke-dasharray:5 3}.envelope{fill:none;stroke:#16a085;stroke-width:1.8}.calming{fill:none;stroke:#555;stroke-width:1.2;stroke-dasharray:4 3}.cue{fill:#e67e22}.bed{fill:none;stroke:#d35400;stroke-width:1.5}.cue-words{font-size:10px;fill:#a04000;text-anchor:start}.beat{fill:none;stroke:#d35400;stroke-width:1.5;stroke-dasharray:1 3}</style>"#)
        svg.rect(x: 0, y: 0, width: Self.width, height: height, attributes: ##"fill="#fbfbfd""##)
        svg.text(x: Self.marginLeft, y: 32, "\(title)", attributes: #"class="title""#)
        svg.text(x: Self.marginLeft, y: 52, "\(subtitle) · \(Microseconds.formatClock(schedule.totalMicroseconds).dropLast(4)) · \(NumberText.count(schedule.cycleCount, "cycle"))")

        drawBands(&svg, panel: levelPanel, labelled: true)
        // Below the two rows of cue words when there are any, so that "breathe in" and "0 s" do not overlap.
        let hasCueWords = schedule.phases.indices.contains { $0 < cueWords.count && !cueWords[$0].isEmpty && schedule.phases[$0].startFrame < detailEnd }
        drawTimeAxis(&svg, panel: levelPanel, labelOffset: hasCueWords ? Self.timeLabelOffsetBelowCueWords : Self.timeLabelOffset)
        svg.text(x: levelPanel.left, y: levelPanel.top - 8, "Horizon level L (0 exhaled, 1 inhaled) — first \(Microseconds.formatClock(Int64(Double(detailEnd) / Double(schedule.sampleRate) * 1_000_000)).dropLast(4)) in detail; cue marks at phase starts")
        drawValueAxis(&svg, panel: levelPanel, axis: NiceAxis(covering: 0...1), side: .left, label: "L", name: "level")
        drawArea(&svg, panel: levelPanel, name: "level", range: 0...1) { curves.level(at: $0) }
        drawCues(&svg, panel: levelPanel)

        let pitchAxis = NiceAxis(covering: range(of: { curves.pitchHz(at: $0) }, in: tonePanel, padding: 0.02))
        var gainCovered = range(of: { curves.toneGainDecibels(at: $0) }, in: overviewPanel, padding: 0.02)
        if let bedLevel = bedLevelDecibels {
            // The bed's level once faded in (its silent ends would stretch the axis to −120 dB).
            let heard = range(of: { curves.bedLevelDecibels(at: $0, levelDecibels: bedLevel) }, in: overviewPanel, padding: 0)
            let faded = sampleFrames(overviewPanel).filter { curves.envelopeGain(at: $0) > 0.5 }.map { curves.bedLevelDecibels(at: $0, levelDecibels: bedLevel) }
            gainCovered = min(gainCovered.lowerBound, faded.min() ?? heard.lowerBound)...max(gainCovered.upperBound, heard.upperBound)
        }
        let gainAxis = NiceAxis(covering: gainCovered)
        let (pitchRange, gainRange) = (pitchAxis.range, gainAxis.range)
        drawBands(&svg, panel: tonePanel, labelled: false)
        drawTimeAxis(&svg, panel: tonePanel)
        svg.text(x: tonePanel.left, y: tonePanel.top - 8, "Main tone: pitch in Hz (solid, left axis) and gain in dB (dashed, right axis)")
        drawValueAxis(&svg, panel: tonePanel, axis: pitchAxis, side: .left, label: "pitch (Hz)", name: "pitch")
        drawValueAxis(&svg, panel: tonePanel, axis: gainAxis, side: .right, label: "gain (dB)", name: "gain")
        drawLine(&svg, panel: tonePanel, name: "pitch", range: pitchRange) { curves.pitchHz(at: $0) }
        drawLine(&svg, panel: tonePanel, name: "gain", range: gainRange) { curves.toneGainDecibels(at: $0) }

        let envelopeAxis = NiceAxis(covering: 0...max(1, range(of: { curves.modulationEnvelope(at: $0) }, in: modulationPanel, padding: 0).upperBound))
        let envelopeRange = envelopeAxis.range
        drawBands(&svg, panel: modulationPanel, labelled: false)
        drawTimeAxis(&svg, panel: modulationPanel)
        svg.text(x: modulationPanel.left, y: modulationPanel.top - 8, "Water modulation: hold swell × session calming (solid); calming alone (dashed)")
        drawValueAxis(&svg, panel: modulationPanel, axis: envelopeAxis, side: .left, label: "depth ×", name: "envelope")
        drawLine(&svg, panel: modulationPanel, name: "envelope", range: envelopeRange) { curves.modulationEnvelope(at: $0) }
        drawLine(&svg, panel: modulationPanel, name: "calming", range: envelopeRange) { curves.calming(at: $0) }

        drawBands(&svg, panel: overviewPanel, labelled: false)
        if let outside { drawOutside(&svg, panel: overviewPanel, framing: outside) }
        drawTimeAxis(&svg, panel: overviewPanel)
        var overviewCaptions: [String] = []
        svg.text(x: overviewPanel.left, y: overviewPanel.top - 8, "Whole session: level (filled), modulation envelope (solid), gain in dB (dashed, right axis)")
        // The overview's own range: a hold swell later in the session (Wim Hof's retention) must not be cut off.
        let overviewAxis = NiceAxis(covering: 0...max(1, range(of: { curves.modulationEnvelope(at: $0) }, in: overviewPanel, padding: 0).upperBound))
        let overviewRange = overviewAxis.range
        drawValueAxis(&svg, panel: overviewPanel, axis: overviewAxis, side: .left, label: "L, depth", name: "overview")
        drawValueAxis(&svg, panel: overviewPanel, axis: gainAxis, side: .right, label: "gain (dB)", name: "overview-gain")
        drawArea(&svg, panel: overviewPanel, name: "overview-level", range: overviewRange) { curves.level(at: $0) }
        drawLine(&svg, panel: overviewPanel, name: "overview-envelope", range: overviewRange, cssClass: "envelope") { curves.modulationEnvelope(at: $0) }
        drawLine(&svg, panel: overviewPanel, name: "overview-gain", range: gainRange, cssClass: "gain") { curves.toneGainDecibels(at: $0) }
        if let bedLevel = bedLevelDecibels {
            overviewCaptions.append("bed level in LU against -20 LUFS (orange, right axis)")
            drawLine(&svg, panel: overviewPanel, name: "overview-bed", range: gainRange, cssClass: "bed") { curves.bedLevelDecibels(at: $0, levelDecibels: bedLevel) }
        }

        if let caption = beatCaption { overviewCaptions.append(caption) }
        // The overview's own caption is on the left at the panel's top; the others stack above it on the right, one a
        // line, so that a bed and a beat never write over each other.
        for (index, caption) in overviewCaptions.enumerated() {
            svg.text(x: overviewPanel.left + overviewPanel.plotWidth, y: overviewPanel.top - 22 - 14 * Double(index), caption, attributes: #"text-anchor="end""#)
        }
        drawBeat(&svg, panel: overviewPanel)
        drawLegend(&svg, y: height - 22)
        return svg.finish()
    }

    // MARK: - Pieces

    /// The frames a panel samples: evenly spaced, plus every phase boundary inside it so corners are sharp.
    func sampleFrames(_ panel: Panel) -> [Int64] {
        var frames: [Int64] = []
        let span = panel.endFrame - panel.startFrame
        for index in 0...Self.sampleCount {
            frames.append(panel.startFrame + span * Int64(index) / Int64(Self.sampleCount))
        }
        let boundaries = schedule.phases.lazy.map(\.startFrame).filter { $0 > panel.startFrame && $0 < panel.endFrame }
        if boundaries.count <= Self.sampleCount {
            frames.append(contentsOf: boundaries)
        }
        // Nothing but the countdown sounds before frame 0: the curves begin there.
        return Array(Set(frames)).sorted().map { min(max(0, $0), max(0, schedule.totalFrames - 1)) }
    }

    func range(of value: (Int64) -> Double, in panel: Panel, padding: Double) -> ClosedRange<Double> {
        let values = sampleFrames(panel).map(value)
        var low = values.min() ?? 0
        var high = values.max() ?? 1
        if high - low < 1e-9 { low -= 1; high += 1 }
        let pad = (high - low) * padding
        return (low - pad)...(high + pad)
    }

    func drawBands(_ svg: inout SVGWriter, panel: Panel, labelled: Bool) {
        for phase in schedule.phases where phase.endFrame > panel.startFrame && phase.startFrame < panel.endFrame {
            let x0 = panel.x(max(phase.startFrame, panel.startFrame))
            let x1 = panel.x(min(phase.endFrame, panel.endFrame))
            guard x1 - x0 >= 0.5 else { continue }
            let word = phase.kind.displayName
            svg.rect(x: x0, y: panel.top, width: x1 - x0, height: panel.height, attributes: "class=\"band-\(word)\" data-kind=\"\(phase.kind.rawValue)\"")
            if labelled, x1 - x0 >= 44 {
                svg.text(x: (x0 + x1) / 2, y: panel.top + 16, word, attributes: #"text-anchor="middle""#)
            }
        }
        svg.rect(x: panel.left, y: panel.top, width: panel.plotWidth, height: panel.height, attributes: #"fill="none" class="axis""#)
    }

    /// The countdown's lead-in and the ending, shaded grey and named, outside the phases' bands.
    func drawOutside(_ svg: inout SVGWriter, panel: Panel, framing: SessionFraming) {
        let lead = framing.leadInFrameCount
        let stretches: [(start: Int64, end: Int64, kind: String, label: String)] = [
            (-lead, 0, "lead-in", "get ready"),
            (framing.endingStartFrame - lead, framing.totalFrameCount - lead, "ending", "end"),
        ]
        for stretch in stretches where stretch.end > stretch.start {
            let x0 = panel.x(stretch.start)
            let x1 = panel.x(stretch.end)
            svg.rect(x: x0, y: panel.top, width: x1 - x0, height: panel.height, attributes: ##"fill="#e4e4ea" data-kind="\##(stretch.kind)""##)
            if x1 - x0 >= 40 {
                svg.text(x: (x0 + x1) / 2, y: panel.top + 16, stretch.label, attributes: #"text-anchor="middle""#)
            }
        }
    }

    /// The width a cue word's character takes at its 10 px sans-serif size, generously.
    static let cueWordCharacterWidth = 5.6

    /// How far under a panel its time labels sit: just under the ticks, or under the two rows of cue words.
    static let timeLabelOffset = 18.0
    static let timeLabelOffsetBelowCueWords = 38.0

    func drawTimeAxis(_ svg: inout SVGWriter, panel: Panel, labelOffset: Double = SessionPlot.timeLabelOffset) {
        let seconds = Double(panel.endFrame - panel.startFrame) / Double(schedule.sampleRate)
        let steps = [1.0, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200]
        let step = steps.first { seconds / $0 <= 12 } ?? 14400
        var tick = 0.0
        while tick <= seconds + 1e-9 {
            let frame = panel.startFrame + Int64(tick * Double(schedule.sampleRate))
            let x = panel.x(frame)
            svg.line(x1: x, y1: panel.top + panel.height, x2: x, y2: panel.top + panel.height + 5, attributes: #"class="axis""#)
            let label = step >= 60 ? String(Microseconds.formatClock(Int64(tick * 1_000_000)).dropLast(4)) : "\(Int(tick)) s"
            svg.text(x: x, y: panel.top + panel.height + labelOffset, label, attributes: #"text-anchor="middle""#)
            tick += step
        }
    }

    enum Side { case left, right }

    /// Ticks at the axis's round values; each tick line carries `data-axis` and `data-tick` so a test
    /// can read the axis back.
    func drawValueAxis(_ svg: inout SVGWriter, panel: Panel, axis: NiceAxis, side: Side, label: String, name: String) {
        let x = side == .left ? panel.left : panel.left + panel.plotWidth
        let anchor = side == .left ? "end" : "start"
        let offset = side == .left ? -6.0 : 6.0
        for value in axis.ticks {
            let y = panel.y(value, in: axis.range)
            svg.line(x1: x, y1: y, x2: x + (side == .left ? -4 : 4), y2: y, attributes: "class=\"axis\" data-axis=\"\(name)\" data-tick=\"\(axis.label(value))\"")
            svg.text(x: x + offset * 1.5, y: y + 4, axis.label(value), attributes: "text-anchor=\"\(anchor)\"")
        }
        let labelX = side == .left ? x - 50 : x + 52
        let middle = panel.top + panel.height / 2
        svg.text(x: labelX, y: middle, label, attributes: "text-anchor=\"middle\" transform=\"rotate(-90 \(SVGWriter.number(labelX)) \(SVGWriter.number(middle)))\"")
    }

    func drawLine(_ svg: inout SVGWriter, panel: Panel, name: String, range: ClosedRange<Double>, cssClass: String? = nil, value: (Int64) -> Double) {
        let frames = sampleFrames(panel)
        let values = frames.map(value)
        let points = zip(frames, values).map { "\(SVGWriter.number(panel.x($0))),\(SVGWriter.number(panel.y($1, in: range)))" }
        svg.raw("<polyline class=\"\(cssClass ?? name)\" data-curve=\"\(name)\" data-frames=\"\(frames.map(String.init).joined(separator: " "))\" data-values=\"\(values.map(SVGWriter.precise).joined(separator: " "))\" points=\"\(points.joined(separator: " "))\"/>")
    }

    func drawArea(_ svg: inout SVGWriter, panel: Panel, name: String, range: ClosedRange<Double>, value: (Int64) -> Double) {
        let frames = sampleFrames(panel)
        let values = frames.map(value)
        let baseline = panel.y(range.lowerBound, in: range)
        var path = "M\(SVGWriter.number(panel.x(frames.first ?? 0))),\(SVGWriter.number(baseline))"
        for (frame, level) in zip(frames, values) {
            path += " L\(SVGWriter.number(panel.x(frame))),\(SVGWriter.number(panel.y(level, in: range)))"
        }
        path += " L\(SVGWriter.number(panel.x(frames.last ?? 0))),\(SVGWriter.number(baseline)) Z"
        svg.raw("<path class=\"level\" data-curve=\"\(name)\" data-frames=\"\(frames.map(String.init).joined(separator: " "))\" data-values=\"\(values.map(SVGWriter.precise).joined(separator: " "))\" d=\"\(path)\"/>")
    }

    func drawCues(_ svg: inout SVGWriter, panel: Panel) {
        for phase in schedule.phases where phase.startFrame >= panel.startFrame && phase.startFrame < panel.endFrame {
            let x = panel.x(phase.startFrame)
            let y = panel.top + panel.height
            svg.raw("<path class=\"cue\" data-cue-frame=\"\(phase.startFrame)\" data-kind=\"\(phase.kind.rawValue)\" d=\"M\(SVGWriter.number(x)),\(SVGWriter.number(y - 9)) L\(SVGWriter.number(x - 5)),\(SVGWriter.number(y)) L\(SVGWriter.number(x + 5)),\(SVGWriter.number(y)) Z\"/>")
        }
        // The words go under the marks, starting at them (centred, the first would run into the value axis's
        // labels), each in the first of two rows where the word before has ended, so that neighbours on short
        // phases and long announcements do not overlap.
        var rowEnds = [-Double.infinity, -Double.infinity]
        for (index, phase) in schedule.phases.enumerated() where phase.startFrame >= panel.startFrame && phase.startFrame < panel.endFrame {
            guard index < cueWords.count, !cueWords[index].isEmpty else { continue }
            let x = panel.x(phase.startFrame) + 3
            let row = rowEnds.firstIndex { $0 <= x } ?? (rowEnds[0] <= rowEnds[1] ? 0 : 1)
            rowEnds[row] = x + Double(cueWords[index].count) * Self.cueWordCharacterWidth + 4
            let y = panel.top + panel.height + 14 + Double(row) * 12
            svg.text(x: x, y: y, cueWords[index], attributes: "class=\"cue-words\" data-cue-frame=\"\(phase.startFrame)\"")
        }
    }

    func drawLegend(_ svg: inout SVGWriter, y: Double) {
        var x = Self.marginLeft
        for (cssClass, label) in [("band-inhale", "inhale"), ("band-hold", "hold"), ("band-exhale", "exhale")] {
            svg.rect(x: x, y: y - 10, width: 14, height: 12, attributes: "class=\"\(cssClass)\"")
            svg.text(x: x + 20, y: y, label)
            x += 90
        }
        svg.raw("<path class=\"cue\" d=\"M\(SVGWriter.number(x + 7)),\(SVGWriter.number(y - 10)) L\(SVGWriter.number(x + 2)),\(SVGWriter.number(y + 1)) L\(SVGWriter.number(x + 12)),\(SVGWriter.number(y + 1)) Z\"/>")
        svg.text(x: x + 20, y: y, "cue (phase start)")
    }
}
