import NagiOptions
import AudioFile
import Breath
import HeartRhythm
import NagiDocuments
import NagiKit
import NagiPlot

/// `nagi resonance analyze`: a heart-rate record read against the session it was breathed to, and the pace
/// at which heart rate swung most with the breath.
enum ResonanceCommand {
    static let analyzeSpec = CommandSpec(
        name: "analyze",
        summary: "Read a heart-rate (RR interval) record against the session breathed and find the resonant pace.",
        positionals: [
            PositionalSpec(name: "RR_FILE", help: "The record: RR intervals as text or CSV, exported from the heart-rate app.", completion: .file),
            SessionOptions.patternPositional(defaultPattern: "resonance-steps"),
        ],
        groups: [PaceOptions.group, SessionLengthOptions.group],
        options: [
            OptionSpec(names: ["--start"], valueName: "TIME", help: "Where the session starts in the record: seconds into it (95.5), or a time on the record's clock (2026-12-02T07:30:00.250, 07:30:00)."),
            OptionSpec(names: ["--align"], valueName: "auto", help: "Find the start by cross-correlating heart rate with the paced breathing (the default without --start).", allowedValues: ["auto"]),
            OptionSpec(names: ["--start-from-progress"], valueName: "COURSE|PATTERN", help: "Take --start from when `nagi play PATTERN` or `nagi course next COURSE` last started the session (the record needs timestamps).", completion: .sessions),
            OptionSpec(names: ["--column"], valueName: "N", help: "Read the RR intervals from column N of a CSV (counted from 1), when its header names no RR or IBI column or names several."),
            OptionSpec(names: ["--settle"], valueName: "SECONDS", help: "Seconds left out at the start of each step while the heart settles, 0 to 60 (default 30)."),
            OptionSpec(names: ["--json"], help: "Print one JSON object with every figure instead of the table."),
            OptionSpec(names: ["--plot"], valueName: "FILE.svg", help: "Also draw heart rate over the session, steps shaded, the breathing under it, as an SVG.", completion: .file),
            OptionSpec(names: ["--force"], help: "Replace an existing plot."),
        ],
        exclusiveGroups: [["--start", "--align", "--start-from-progress"]],
        discussion: """
        Records read: one interval per line (Elite HRV's export; milliseconds, or seconds when every value is \
        below 10); time and RR per line (Kubios' RR text); CSV with a header naming an RR or IBI column, \
        separated by ; , or tab (Polar Sensor Logger's `Phone timestamp;RR-interval [ms]`, HRV Logger's CSV), \
        its timestamps (ISO 8601, a 24- or 12-hour clock, or epoch milliseconds; a record running past midnight \
        goes on into the next day) placing every beat on a clock, a decimal comma read where ; or tab separates; \
        --column N picks the RR column. Lines starting # or // and blank lines are skipped. A record holds at most \
        200 000 beats (48 hours at 70 a minute).

        Intervals outside 300-2000 ms or more than 25 % from the median of their neighbours (Kubios' medium \
        threshold) are artefacts, counted per step; an ectopic beat and its compensatory pause are both set to \
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

    static let spec = CommandSpec(
        name: "resonance",
        summary: "Find your resonant breathing rate from a heart-rate record of resonance-steps.",
        discussion: """
        Examples:
          nagi resonance analyze polar-rr.txt
        """,
        subcommands: [analyzeSpec]
    )

    /// The largest record read, in bytes (a day of beats is about 3 MB).
    static let fileSizeLimit = 64 << 20

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        let path = arguments.commandPath
        guard path.count >= 2 else { throw .arguments(.missingArgument("COMMAND (analyze)")) }
        switch path[1] {
        case "analyze": try analyze(arguments)
        default: throw .usage("unknown resonance command '\(path[1])'")
        }
    }

    static func analyze(_ arguments: ParsedArguments) throws(CLIError) {
        guard let recordPath = arguments.positionals.first else { throw .arguments(.missingArgument("RR_FILE")) }
        let options = try SessionOptions(arguments, catalog: PresetEnvironment.catalog(), defaultPattern: "resonance-steps", patternIndex: 1)
        let settle: Double
        let column: Int?
        do {
            settle = try arguments.decimal("--settle", in: 0...60) ?? 30
            column = try arguments.int("--column", in: 1...1000)
        } catch {
            throw .arguments(error)
        }
        let plotPath = arguments.value("--plot")
        if let plotPath, OutputChoice.extensionText(of: plotPath)?.lowercased() != "svg" {
            throw .usage("--plot \(plotPath): a plot is an SVG; name the file .svg")
        }
        if let plotPath, !arguments.isSet("--force"), TextFileOutput.isExistingRegularFile(plotPath) {
            throw .cannotCreate("'\(plotPath)' already exists; use --force to replace it")
        }
        let start = try startChoice(arguments)
        let bytes = try readRecord(recordPath)
        let breathing = PacedBreathing(schedule: try options.schedule(), name: options.name)
        let report: ResonanceReport
        do {
            report = try ResonanceJSON.analyze(recordBytes: bytes, recordName: recordPath, column: column, breathing: breathing, start: start, settleSeconds: settle)
        } catch {
            throw error.category == .usage ? .usage(error.message) : .data(error.message)
        }
        let text = arguments.isSet("--json") ? ResonanceJSON.text(report, patternName: options.name) : ResonanceReportText.table(report, options: options, recordPath: recordPath)
        if let plotPath {
            let plot = ResonancePlot(report: report, breathing: breathing, title: "Resonance: \(options.title)", subtitle: "\(options.name) · \(recordPath.split(separator: "/").last.map(String.init) ?? recordPath)")
            try CLIError.reporting { () throws(TextFileError) in try TextFileOutput.write(plot.svg(), to: plotPath, overwrite: arguments.isSet("--force")) }
        }
        Console.out(text)
    }

    /// `--start`, `--start-from-progress` or `--align auto` (the default).
    static func startChoice(_ arguments: ParsedArguments) throws(CLIError) -> ResonanceAnalysis.Start {
        if let text = arguments.value("--start") {
            if let seconds = NumberSyntax.decimal(text) { return .secondsIntoRecord(seconds) }
            guard let clock = ClockTime.parse(Substring(text)) else {
                throw .arguments(.invalidValue(option: "--start", value: text, expected: "seconds into the record, or a clock time such as 2026-12-02T07:30:00.250 or 07:30:00"))
            }
            return .clock(clock)
        }
        if let name = arguments.value("--start-from-progress") {
            return .clock(try SessionStartRecord.lastStart(of: name))
        }
        return .automatic
    }

    /// The record's bytes; a path `InputFile` refuses exits 66, a read failing part way 74, a file too large 65.
    static func readRecord(_ path: String) throws(CLIError) -> [UInt8] {
        let bytes: [UInt8]
        do { bytes = try InputFile.read(path, limit: fileSizeLimit) } catch { throw .input(error) }
        guard bytes.count <= fileSizeLimit else { throw .data("\(path) is larger than \(fileSizeLimit >> 20) MB; not an RR record") }
        return bytes
    }
}
