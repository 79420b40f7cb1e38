import HeartRhythm
import NagiKit
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
        let best = report.bestIndex.map { index in
            let step = report.steps[index]
            return Best(
                breathsPerMinute: JSONDecimal(step.breathsPerMinute), label: step.label, verdict: report.verdict, clear: report.decision.clear,
                margin: optional(report.margin), tStatistic: optional(report.decision.tStatistic))
        }
        let alignment: Alignment? = switch report.placement {
        case .given: nil
        case let .found(alignment):
            Alignment(
                correlation: JSONDecimal(alignment.correlation), runnerUpCorrelation: JSONDecimal(alignment.runnerUpCorrelation),
                runnerUpOffsetSeconds: JSONDecimal(alignment.runnerUpOffsetSeconds), clear: alignment.isClear,
                heartDelaySeconds: optional(alignment.heartDelaySeconds))
        }
        let steps = report.steps.map { step in
            Step(
                label: step.label, breathsPerMinute: JSONDecimal(step.breathsPerMinute), startSeconds: JSONDecimal(step.startSeconds),
                endSeconds: JSONDecimal(step.endSeconds), meanHeartRate: JSONDecimal(step.meanHeartRate), peakToTrough: JSONDecimal(step.peakToTrough),
                lowFrequencyPower: JSONDecimal(step.lowFrequencyPower), peakFrequencyHz: JSONDecimal(step.peakFrequencyHz),
                peakDensity: JSONDecimal(step.peakDensity), phaseDegrees: JSONDecimal(step.phaseDegrees),
                rmssdMilliseconds: JSONDecimal(step.rmssdMilliseconds), sdnnMilliseconds: JSONDecimal(step.sdnnMilliseconds),
                beats: step.beatCount, artefacts: step.artefactCount, excluded: JSONNullable(step.excludedReason), score: JSONDecimal(step.score))
        }
        return JSONOutput.line(Report(
            pattern: patternName, refused: false, format: report.formatDescription, best: JSONNullable(best),
            reason: JSONNullable(best == nil ? report.decision.reason ?? report.verdict : nil), notes: report.notes,
            offsetSeconds: JSONDecimal(report.offsetSeconds), alignment: JSONNullable(alignment), artefacts: report.artefactCount,
            beats: report.beatCount, recordSeconds: JSONDecimal(report.recordSeconds), steps: steps))
    }

    /// The object for a record refused for its content: no figures, `refused` true, `best` null and the reason.
    package static func refusal(_ reason: String, patternName: String) -> String {
        JSONOutput.line(Refusal(pattern: patternName, refused: true, best: JSONNullable(nil), reason: reason, notes: [], steps: []))
    }

    /// A figure that may be missing or undefined (a margin with no runner-up): null then.
    static func optional(_ value: Double?) -> JSONNullable<JSONDecimal> {
        JSONNullable(value.flatMap { $0.isFinite ? JSONDecimal($0) : nil })
    }

    /// The report's object, as scripts and the heart page read it.
    struct Report: Encodable {
        var pattern: String, refused: Bool, format: String, best: JSONNullable<Best>, reason: JSONNullable<String>, notes: [String]
        var offsetSeconds: JSONDecimal, alignment: JSONNullable<Alignment>, artefacts: Int, beats: Int, recordSeconds: JSONDecimal, steps: [Step]
    }

    /// The winning step and how clearly it won.
    struct Best: Encodable {
        var breathsPerMinute: JSONDecimal, label: String, verdict: String, clear: Bool
        var margin, tStatistic: JSONNullable<JSONDecimal>
    }

    /// Where the session was found in the record, when alignment found it.
    struct Alignment: Encodable {
        var correlation, runnerUpCorrelation, runnerUpOffsetSeconds: JSONDecimal
        var clear: Bool, heartDelaySeconds: JSONNullable<JSONDecimal>
    }

    /// One step's figures.
    struct Step: Encodable {
        var label: String
        var breathsPerMinute, startSeconds, endSeconds, meanHeartRate, peakToTrough, lowFrequencyPower: JSONDecimal
        var peakFrequencyHz, peakDensity, phaseDegrees, rmssdMilliseconds, sdnnMilliseconds: JSONDecimal
        var beats, artefacts: Int, excluded: JSONNullable<String>, score: JSONDecimal
    }

    /// A record refused for its content.
    struct Refusal: Encodable {
        var pattern: String, refused: Bool, best: JSONNullable<Best>, reason: String, notes: [String], steps: [Step]
    }
}
