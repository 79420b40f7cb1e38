import NagiKit
import NagiOptions

/// `nagi plot`: the session's plan as a standalone SVG (`PlotOptions`), written to a file or standard output.
enum PlotCommand {
    static let spec = PlotOptions.spec

    static func run(_ arguments: ParsedArguments) throws(NagiError) {
        let plot = try PlotOptions(arguments, catalog: PresetEnvironment.catalog())
        let path = arguments.text(of: PlotOptions.output) ?? FileNames.safeStem(plot.session.name) + ".svg"
        if path != OutputChoice.standardOutputPath, OutputChoice.extensionText(of: path)?.lowercased() != "svg" {
            throw .usage("-o \(path): a plot is an SVG; name the file .svg, or write it to standard output with -o -")
        }
        let force = arguments[PlotOptions.force]
        if !force, TextFileOutput.isExistingRegularFile(path) {
            throw .cannotCreate("'\(path)' already exists; use --force to replace it")
        }
        let svg = plot.svg
        if path == OutputChoice.standardOutputPath {
            Console.out(svg)
            // A full disk or a closed reader fails the command before anything is claimed.
            if let fault = Console.takeStandardOutputFault() { throw fault }
        } else {
            try NagiError.reporting { () throws(TextFileError) in try TextFileOutput.write(svg, to: path, overwrite: force) }
        }
        if !arguments[RenderOptions.quiet] {
            Console.err("wrote \(path == OutputChoice.standardOutputPath ? "standard output" : TerminalText.printable(path))\n")
        }
    }
}
