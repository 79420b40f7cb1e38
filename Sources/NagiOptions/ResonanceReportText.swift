import Breath
import HeartRhythm
import NagiDocuments
import NagiKit

/// A resonance report as the table `nagi resonance analyze` prints, or as JSON for other tools.
package enum ResonanceReportText {
    /// The readable table and verdict.
    ///
    /// `givenStart` says where a start not found by alignment came from ("given": `--start`; "recorded when `nagi play
    /// box` started it": `--start-from-progress`).
    package static func table(_ report: ResonanceReport, options: SessionOptions, recordPath: String, givenStart: String = "given") -> String {
        var text = TerminalText.printable("\(DescribeOptions.header(options: options)) · \(recordPath) (\(report.formatDescription))") + "\n"
        text += "record \(clock(report.recordSeconds)) · \(NumberText.count(report.beatCount, "beat")) · \(NumberText.count(report.artefactCount, "artefact")) replaced (\(NumberText.fixed(percent(report.artefactCount, of: report.beatCount), decimals: 1)) %)\n"
        text += "session starts \(NumberText.fixed(report.offsetSeconds, decimals: 2)) s into the record"
        switch report.placement {
        case .given:
            text += " (\(givenStart))\n"
        case let .found(alignment):
            text += " (found: correlation \(NumberText.fixed(alignment.correlation, decimals: 2)); next best \(NumberText.fixed(alignment.runnerUpCorrelation, decimals: 2)) at \(NumberText.fixed(alignment.runnerUpOffsetSeconds, decimals: 0)) s — \(alignmentWords(alignment)))\n"
        }
        var rows: [[String]] = [["step", "analysed", "mean HR", "peak-trough", "LF power", "LF peak", "phase", "RMSSD", "SDNN", "score"]]
        for (index, step) in report.steps.enumerated() {
            rows.append([
                step.label + (index == report.bestIndex ? " *" : step.excludedReason != nil ? " (left out)" : ""),
                clock(step.startSeconds) + "–" + clock(step.endSeconds),
                NumberText.fixed(step.meanHeartRate, decimals: 1) + " bpm",
                NumberText.fixed(step.peakToTrough, decimals: 1) + " bpm",
                NumberText.fixed(step.lowFrequencyPower, decimals: 0) + " ms²",
                NumberText.fixed(step.peakFrequencyHz, decimals: 3) + " Hz",
                (step.phaseDegrees.rounded() > 0 ? "+" : "") + NumberText.fixed(step.phaseDegrees, decimals: 0) + "°",
                NumberText.fixed(step.rmssdMilliseconds, decimals: 0) + " ms",
                NumberText.fixed(step.sdnnMilliseconds, decimals: 0) + " ms",
                NumberText.fixed(step.score, decimals: 2),
            ])
        }
        text += TextTable.render(rows, rightAligned: [2, 3, 4, 5, 6, 7, 8, 9])
        for note in report.notes { text += TerminalText.printable("note: \(note)") + "\n" }
        if report.bestIndex == nil {
            text += "no verdict: \(report.decision.reason ?? report.verdict)"
        } else {
            text += "best: \(report.verdict)"
            if let margin = report.margin, let t = report.decision.tStatistic, t.isFinite {
                text += " (score margin \(NumberText.fixed(margin * 100, decimals: 0)) % over its neighbours; swing t = \(NumberText.fixed(t, decimals: 1)))"
            }
        }
        text += "\nphase: how far heart rate lags the breath (0° rises with the inhale); score: the mean of swing, LF power and LF peak against the largest, and cos(phase)\n"
        return text
    }

    static func alignmentWords(_ alignment: SessionAligner.Alignment) -> String {
        alignment.isClear ? "clear" : "unclear: check it, or give --start"
    }

    static func percent(_ part: Int, of whole: Int) -> Double {
        whole > 0 ? Double(part) * 100 / Double(whole) : 0
    }

    /// "m:ss" (or "h:mm:ss") for seconds.
    static func clock(_ seconds: Double) -> String {
        let text = Microseconds.formatClock(Int64((seconds * 1_000_000).rounded()))
        return String(text.dropLast(4))
    }
}
