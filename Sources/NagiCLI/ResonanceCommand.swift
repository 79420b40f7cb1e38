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
    static let spec = CommandSpec(
        name: "resonance",
        summary: "Find your resonant breathing rate from a heart-rate record of resonance-steps.",
        discussion: """
        Examples:
          nagi resonance analyze polar-rr.txt
        """,
        subcommands: [ResonanceOptions.spec]
    )

    static func run(_ arguments: ParsedArguments) throws(NagiError) {
        let path = arguments.commandPath
        guard path.count >= 2 else { throw .arguments(.missingArgument("COMMAND (analyze)")) }
        switch path[1] {
        case "analyze": try analyze(arguments)
        default: throw .usage("unknown resonance command '\(path[1])'")
        }
    }

    static func analyze(_ arguments: ParsedArguments) throws(NagiError) {
        guard let recordPath = arguments.positionals.first else { throw .arguments(.missingArgument("RR_FILE")) }
        let options = try ResonanceOptions(arguments, catalog: PresetEnvironment.catalog(), lastStart: SessionStartRecord.lastStart(of:))
        let plotPath = arguments.text(of: ResonanceOptions.plot)
        if let plotPath, OutputChoice.extensionText(of: plotPath)?.lowercased() != "svg" {
            throw .usage("--plot \(plotPath): a plot is an SVG; name the file .svg")
        }
        if let plotPath, !arguments[ResonanceOptions.force], TextFileOutput.isExistingRegularFile(plotPath) {
            throw .cannotCreate("'\(plotPath)' already exists; use --force to replace it")
        }
        let report: ResonanceReport
        do {
            report = try options.report(recordBytes: try readRecord(recordPath), recordName: recordPath)
        } catch {
            // A record refused for its content still answers --json with an object saying why (and exits 65).
            if arguments[ResonanceOptions.json], case let .data(reason) = error { Console.out(options.refusalJSON(reason)) }
            throw error
        }
        let text = arguments[ResonanceOptions.json] ? options.json(report) : options.table(report, recordName: recordPath)
        if let plotPath {
            let svg = options.plotSVG(report, recordName: recordPath)
            try NagiError.reporting { () throws(TextFileError) in try TextFileOutput.write(svg, to: plotPath, overwrite: arguments[ResonanceOptions.force]) }
        }
        Console.out(text)
    }

    /// The record's bytes; a path `InputFile` refuses exits 66, a read failing part way 74.
    static func readRecord(_ path: String) throws(NagiError) -> [UInt8] {
        do { return try InputFile.read(path, limit: ResonanceOptions.fileSizeLimit) } catch { throw .input(error) }
    }
}
