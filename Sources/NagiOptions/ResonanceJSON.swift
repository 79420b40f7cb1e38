import HeartRhythm
import NagiDocuments

/// A resonance report as one JSON object: what `nagi resonance analyze --json` prints and `/api/resonance`
/// answers, from one place so the two never differ.
package enum ResonanceJSON {
    /// Reads `bytes` as an RR record named `recordName` (its RR values from `column`, counted from 1, when given)
    /// and analyses it against `breathing`; a fault of the record is bad data (65), of the request usage (64).
    package static func analyze(
        recordBytes bytes: [UInt8], recordName: String, column: Int? = nil, breathing: PacedBreathing,
        start: ResonanceAnalysis.Start, settleSeconds: Double = 30
    ) throws(HeartRhythmError) -> ResonanceReport {
        let record = try RRParser.parse(bytes, name: recordName, column: column)
        do {
            return try ResonanceAnalysis(breathing: breathing, start: start, settleSeconds: settleSeconds).analyze(record)
        } catch {
            throw error.category == .usage ? error : .badData("\(recordName): \(error.message)")
        }
    }

    /// Every figure of `report` as one JSON object; `patternName` names the session breathed. `best` is null when
    /// there is no verdict, and `reason` says why; otherwise `best.clear` says whether the pace stood out clearly.
    package static func text(_ report: ResonanceReport, patternName: String) -> String {
        var text = "{\"pattern\": \(JSONText.quote(patternName)), \"refused\": false, \"format\": \(JSONText.quote(report.formatDescription)), "
        if let index = report.bestIndex {
            let best = report.steps[index]
            text += "\"best\": {\"breathsPerMinute\": \(JSONText.number(best.breathsPerMinute)), \"label\": \(JSONText.quote(best.label)), "
            text += "\"verdict\": \(JSONText.quote(report.verdict)), \"clear\": \(report.decision.clear), \"margin\": \(optional(report.margin)), "
            text += "\"tStatistic\": \(optional(report.decision.tStatistic))}, \"reason\": null, "
        } else {
            text += "\"best\": null, \"reason\": \(JSONText.quote(report.decision.reason ?? report.verdict)), "
        }
        text += "\"notes\": [" + report.notes.map(JSONText.quote).joined(separator: ", ") + "], "
        text += "\"offsetSeconds\": \(JSONText.number(report.offsetSeconds)), "
        switch report.placement {
        case .given:
            text += "\"alignment\": null, "
        case let .found(alignment):
            text += "\"alignment\": {\"correlation\": \(JSONText.number(alignment.correlation)), \"runnerUpCorrelation\": \(JSONText.number(alignment.runnerUpCorrelation)), \"runnerUpOffsetSeconds\": \(JSONText.number(alignment.runnerUpOffsetSeconds)), \"clear\": \(alignment.isClear), \"heartDelaySeconds\": \(optional(alignment.heartDelaySeconds))}, "
        }
        text += "\"artefacts\": \(report.artefactCount), \"beats\": \(report.beatCount), \"recordSeconds\": \(JSONText.number(report.recordSeconds)), "
        let steps = report.steps.map { step in
            "{\"label\": \(JSONText.quote(step.label)), \"breathsPerMinute\": \(JSONText.number(step.breathsPerMinute)), "
                + "\"startSeconds\": \(JSONText.number(step.startSeconds)), \"endSeconds\": \(JSONText.number(step.endSeconds)), "
                + "\"meanHeartRate\": \(JSONText.number(step.meanHeartRate)), \"peakToTrough\": \(JSONText.number(step.peakToTrough)), "
                + "\"lowFrequencyPower\": \(JSONText.number(step.lowFrequencyPower)), \"peakFrequencyHz\": \(JSONText.number(step.peakFrequencyHz)), "
                + "\"peakDensity\": \(JSONText.number(step.peakDensity)), \"phaseDegrees\": \(JSONText.number(step.phaseDegrees)), "
                + "\"rmssdMilliseconds\": \(JSONText.number(step.rmssdMilliseconds)), \"sdnnMilliseconds\": \(JSONText.number(step.sdnnMilliseconds)), "
                + "\"beats\": \(step.beatCount), \"artefacts\": \(step.artefactCount), "
                + "\"excluded\": \(step.excludedReason.map(JSONText.quote) ?? "null"), \"score\": \(JSONText.number(step.score))}"
        }
        text += "\"steps\": [\n  " + steps.joined(separator: ",\n  ") + "\n]}\n"
        return text
    }

    /// The object for a record refused for its content: no figures, `refused` true, `best` null and the reason.
    package static func refusal(_ reason: String, patternName: String) -> String {
        "{\"pattern\": \(JSONText.quote(patternName)), \"refused\": true, \"best\": null, \"reason\": \(JSONText.quote(reason)), \"notes\": [], \"steps\": []}\n"
    }

    static func optional(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return JSONText.number(value)
    }
}
