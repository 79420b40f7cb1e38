import Breath
import FoundationEssentials
import Glibc
import Synth

/// `nagi plot`: the session's plan as a standalone SVG — the level, the phases, pitch, gain and the
/// modulation envelope, computed from the same functions the renderer uses.
enum PlotCommand {
    static let spec = CommandSpec(
        name: "plot",
        summary: "Draw a session as an SVG: the horizon level, phases, pitch (Hz), gain (dB) and modulation.",
        positionals: [SessionOptions.patternPositional],
        options: SessionOptions.paceOptions + SessionOptions.lengthOptions + [
            SessionOptions.rateOption,
            OptionSpec(names: ["--soundscape"], valueName: "NAME|FILE", help: "The soundscape whose pitch and gain to draw (default horizon)."),
            OptionSpec(names: ["-o", "--output"], valueName: "FILE.svg", help: "The SVG to write (default: <pattern>.svg here)."),
            OptionSpec(names: ["--force"], help: "Replace an existing file."),
        ],
        exclusiveGroups: SessionOptions.exclusiveGroups,
        discussion: """
        The plot shows the first cycles in detail and the whole session as an overview. It is a \
        standalone SVG (no scripts, no outside fonts or files).

        Examples:
          nagi plot 4-7-8
          nagi plot wim-hof -o wim-hof.svg
          nagi plot longer-exhale-ramp --soundscape night
        """
    )

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        let catalog = PresetEnvironment.catalog()
        let options = try SessionOptions(arguments, catalog: catalog)
        let schedule = try options.schedule()
        let (soundscape, soundscapeName) = try SoundscapeResolver.resolve(arguments.value("--soundscape"), catalog: catalog)
        let path = arguments.value("--output") ?? FileNames.safeStem(options.name) + ".svg"
        let force = arguments.isSet("--force")
        if !force, TextFileOutput.isExistingRegularFile(path) {
            throw .cannotCreate("'\(path)' already exists; use --force to replace it")
        }
        let curves = ControlCurves(schedule: schedule, soundscape: soundscape)
        let svg = SessionPlot(schedule: schedule, curves: curves, title: options.title, subtitle: "\(options.name) · soundscape \(soundscapeName)").svg()
        try TextFileOutput.write(svg, to: path, overwrite: force)
        Console.err("wrote \(path)\n")
    }
}
