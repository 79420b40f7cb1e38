import NagiBase
import AudioFile
import Breath
import HeartRhythm
import NagiDocuments
import NagiKit
import NagiPlot

/// `nagi resonance analyze`'s options read: the session breathed, where it starts in the record and how long each
/// step settles; and the report, table, JSON and plot made from a record. The command line and `nagi serve`'s
/// `/api/resonance` both read a record through this one type.
package struct ResonanceOptions {
    /// The text is read in context (a clock time needs the record's date rules), so it stays text here.
    package static let start = Option<String>(["--start"], valueName: "TIME", help: "Where the session starts in the record: seconds into it (95.5), or a time on the record's clock (2026-12-02T07:30:00.250, 07:30:00).", overHTTP: true)
    package static let align = Option<String>(["--align"], valueName: "auto", help: "Find the start by cross-correlating heart rate with the paced breathing (the default without --start).", allowedValues: ["auto"], overHTTP: true)
    /// Reads the command line's progress store: not a request's.
    package static let startFromProgress = Option<String>(["--start-from-progress"], valueName: "COURSE|PATTERN", help: "Take --start from when `nagi play PATTERN` or `nagi course next COURSE` last started the session (the record needs timestamps).", completion: .sessions)
    package static let column = Option<Int>(["--column"], valueName: "N", help: "Read the RR intervals from column N of a CSV (counted from 1), when its header names no RR or IBI column or names several.", wholeNumberIn: 1...1000, overHTTP: true)
    package static let settle = Option<Double>(["--settle"], valueName: "SECONDS", help: "Seconds left out at the start of each step while the heart settles, 0 to 60 (default 30).", decimalIn: 0...60, overHTTP: true)
    /// The terminal's choice of layout; a request asks `/api/resonance`, which answers JSON.
    package static let json = Flag(["--json"], help: "Print one JSON object with every figure instead of the table.")
    /// A path: the command line's alone.
    package static let plot = Option<String>(["--plot"], valueName: "FILE.svg", help: "Also draw heart rate over the session, steps shaded, the breathing under it, as an SVG.", completion: .file)
    package static let force = Flag(["--force"], help: "Replace an existing plot.")

    package static let spec = CommandSpec(
        name: "analyze",
        summary: "Read a heart-rate (RR interval) record against the session breathed and find the resonant pace.",
        positionals: [
            PositionalSpec(name: "RR_FILE", help: "The record: RR intervals as text or CSV, exported from the heart-rate app.", completion: .file),
            SessionOptions.patternPositional(defaultPattern: "resonance-steps"),
        ],
        groups: [PaceOptions.group, SessionLengthOptions.group],
        options: [Self.start.spec, align.spec, startFromProgress.spec, Self.column.spec, settle.spec, json.spec, plot.spec, force.spec],
        exclusiveGroups: [[Self.start.name, align.name, startFromProgress.name]],
        discussion: """
        Records read: one interval per line (Elite HRV's export; milliseconds, or seconds when every value is \
        below 10); time and RR per line (Kubios' RR text); CSV with a header naming an RR or IBI column, \
        separated by ; , or tab (Polar Sensor Logger's `Phone timestamp;RR-interval [ms]`, HRV Logger's CSV), \
        its timestamps (ISO 8601, a 24- or 12-hour clock, or epoch milliseconds; a record running past midnight \
        goes on into the next day) placing every beat on a clock, or where they are stamps of a packet's arrival \
        anchoring the intervals' sum at the start and after gaps; Empatica E4's IBI.csv, its gaps kept; a \
        decimal comma read where ; or tab separates, a thousands separator where it cannot part the cells; \
        --column N picks the RR column. Lines starting # or // and blank lines are skipped. A record holds at most \
        200 000 beats (48 hours at 70 a minute).

        Artefacts are found by an adaptive local threshold (Lipponen & Tarvainen 2019, as Kubios): successive \
        differences and departures from the local median against 5.2 quartile deviations over the 91 beats \
        around, so the swing of a strong resonance stays, and intervals outside 300-2000 ms; counted per step; an ectopic beat and its compensatory pause are both set to \
        half their sum (as Kubios and NeuroKit2 correct them), other artefacts interpolated. A record with more \
        than 20 % is refused; a step with more than 10 %, or with a gap of over 3 s in the timestamps, is left \
        out and said so. For each step (each labelled stage, or the whole session) less its first --settle seconds: \
        mean heart rate, peak-to-trough heart rate per breath, power in 0.04-0.15 Hz of the RR series resampled \
        at 4 Hz (cubic spline, Welch), its peak frequency and the phase of heart rate to the breath (Shaffer & \
        Meehan 2020), RMSSD and SDNN. The best step wins on the four together. It is "clear" when its swing, \
        breath by breath, beats each neighbour's (t >= 3) and its score theirs by 10 %; else "likely". There is \
        no verdict, with the reason, when the record does not follow the session: a step's LF peak more than \
        0.3 breaths/min from its pace, or the LF band not dominant. See docs/resonance.md for how far to trust it. \
        Give the same --ratio (and --minutes) you breathed. This is feedback on a practice, not a \
        medical measurement.

        Examples:
          nagi resonance analyze polar-rr.txt --align auto
          nagi resonance analyze polar-rr.txt --start 2026-12-02T07:30:01.250 --ratio 2:3
          nagi resonance analyze rr.txt --start 95 --json
          nagi resonance analyze rr.csv --start-from-progress resonance-steps --plot steps.svg
        """
    )

    /// The largest record read, in bytes (a day of beats is about 3 MB).
    package static let fileSizeLimit = 64 << 20

    /// The session breathed, as its options named it.
    package let session: SessionOptions
    /// The session's breathing, the record's reference.
    package let breathing: PacedBreathing
    /// Where the session starts in the record.
    package let start: ResonanceAnalysis.Start
    /// Seconds left out at the start of each step.
    package let settleSeconds: Double
    /// The CSV column holding the RR intervals, counted from 1 (`--column`); nil: the header says.
    package let column: Int?
    /// Where a start not found by alignment came from, for the report's "session starts" line.
    package private(set) var startSource: String

    /// The options of `arguments` (the record's path, if any, is the caller's). `lastStart` gives the clock time
    /// `--start-from-progress NAME` names (the command line's progress store); nil refuses that option.
    package init(
        _ arguments: ParsedArguments, catalog: PresetCatalog, lastStart: ((String) throws(NagiError) -> ClockTime)? = nil
    ) throws(NagiError) {
        session = try SessionOptions(arguments, catalog: catalog, defaultPattern: "resonance-steps", patternIndex: 1)
        do {
            settleSeconds = try arguments[Self.settle] ?? 30
            column = try arguments[Self.column]
        } catch {
            throw .arguments(error)
        }
        startSource = arguments.text(of: Self.startFromProgress).map { "recorded when '\(TerminalText.printable($0))' last started" } ?? "given by --start"
        if let text = arguments.text(of: Self.start) {
            if let seconds = NumberSyntax.decimal(text) {
                start = .secondsIntoRecord(seconds)
            } else if let reason = ClockTime.nonexistentDateReason(Substring(text)) {
                throw .usage("--start \(TerminalText.printable(text)): \(reason)")
            } else if let clock = ClockTime.parse(Substring(text)) {
                start = .clock(clock)
            } else {
                throw .arguments(.invalidValue(option: "--start", value: text, expected: "seconds into the record, or a clock time such as 2026-12-02T07:30:00.250 or 07:30:00"))
            }
        } else if let name = arguments.text(of: Self.startFromProgress) {
            guard let lastStart else { throw .usage("--start-from-progress is not taken here: give --start") }
            let clock = try lastStart(name)
            start = .clock(clock)
            startSource += ", at \(clock.isoText)"
        } else {
            start = .automatic
        }
        breathing = PacedBreathing(schedule: try session.schedule(), name: session.name)
    }

    /// Refuses a record larger than `fileSizeLimit` bytes (exit 65) before it is parsed.
    package static func checkSize(of bytes: [UInt8], name: String) throws(NagiError) {
        guard bytes.count <= fileSizeLimit else { throw .data("\(name) is larger than \(fileSizeLimit >> 20) MB; not an RR record") }
    }

    /// The record's bytes read against the session: a fault of the record is bad content (65) named by
    /// `recordName`, a fault of the options (a start outside the record) usage (64).
    package func report(recordBytes bytes: [UInt8], recordName: String) throws(NagiError) -> ResonanceReport {
        try Self.checkSize(of: bytes, name: recordName)
        do {
            return try ResonanceJSON.analyze(recordBytes: bytes, recordName: recordName, column: column, breathing: breathing, start: start, settleSeconds: settleSeconds)
        } catch {
            throw error.category == .usage ? .usage(error.message) : .data(error.message)
        }
    }

    /// The report as one JSON object (`--json`).
    package func json(_ report: ResonanceReport) -> String {
        ResonanceJSON.text(report, patternName: session.name)
    }

    /// The JSON object of a record refused for its content: `refused` true, `best` null and the reason.
    package func refusalJSON(_ reason: String) -> String {
        ResonanceJSON.refusal(reason, patternName: session.name)
    }

    /// The readable table and verdict.
    package func table(_ report: ResonanceReport, recordName: String) -> String {
        ResonanceReportText.table(report, options: session, recordPath: recordName, givenStart: startSource)
    }

    /// Heart rate over the session, steps shaded, the breathing under it, as SVG (`--plot`).
    package func plotSVG(_ report: ResonanceReport, recordName: String) -> String {
        let fileName = FilePath(recordName).lastComponent
        return ResonancePlot(report: report, breathing: breathing, title: "Resonance: \(session.title)", subtitle: "\(session.name) · \(fileName)").svg()
    }
}
