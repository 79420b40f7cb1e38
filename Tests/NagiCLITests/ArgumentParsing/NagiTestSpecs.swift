@testable import NagiCLI
@testable import NagiOptions

/// Specs shaped like nagi's real commands, so tests exercise the parser on the command lines it
/// has to serve. The real specs live with the commands; these are test fixtures.
enum NagiTestSpecs {
    static let lengthOptions = [
        OptionSpec(names: ["--cycles"], valueName: "N", help: "Number of breathing cycles."),
        OptionSpec(names: ["--minutes"], valueName: "M", help: "Session length in minutes; ends on a whole breath."),
        OptionSpec(names: ["--rate"], valueName: "HZ", help: "Sample rate in hertz."),
    ]

    static let describe = CommandSpec(
        name: "describe",
        summary: "Print a pattern's phases and timing.",
        positionals: [PositionalSpec(name: "PATTERN", help: "A preset name or a pattern such as 4-7-8.")],
        options: lengthOptions + [OptionSpec(names: ["--json"], help: "Print JSON instead of text.")],
        exclusiveGroups: [["--cycles", "--minutes"]]
    )

    static let render = CommandSpec(
        name: "render",
        summary: "Render a breathing session to an audio file.",
        positionals: [PositionalSpec(name: "PATTERN", help: "A preset name or a pattern such as 4-7-8.", isOptional: true)],
        options: [OptionSpec(names: ["-o", "--output"], valueName: "FILE", help: "Where to write the audio.")]
            + lengthOptions
            + [
                OptionSpec(names: ["--channels"], valueName: "N", help: "Mono or stereo.", allowedValues: ["1", "2"]),
                OptionSpec(names: ["--format"], valueName: "FORMAT", help: "Container and codec.",
                           allowedValues: ["wav", "flac", "ogg", "opus", "mp3"]),
                OptionSpec(names: ["--bits"], valueName: "BITS", help: "Sample format for wav and flac.",
                           allowedValues: ["16", "24", "float"]),
                OptionSpec(names: ["--quality"], valueName: "Q", help: "Encoder quality for ogg, opus and mp3, from 0 to 1."),
                OptionSpec(names: ["--soundscape"], valueName: "NAME|FILE", help: "A soundscape preset name or a JSON file."),
                OptionSpec(names: ["--no-cues"], help: "Leave out the chimes at phase changes."),
                OptionSpec(names: ["--seed"], valueName: "N", help: "Seed for the noise voices, for repeatable output."),
                OptionSpec(names: ["--title"], valueName: "T", help: "Title tag written into the file."),
                OptionSpec(names: ["--labels"], valueName: "FILE", help: "Also write phase labels (Audacity format) to FILE."),
                OptionSpec(names: ["--force"], help: "Overwrite an existing output file."),
                OptionSpec(names: ["--quiet"], help: "Print nothing but errors."),
            ],
        exclusiveGroups: [["--cycles", "--minutes"]],
        discussion: """
            Without PATTERN the default preset is rendered. The output format follows the file \
            extension unless --format is given.

            Examples:
              nagi render 4-7-8 --minutes 10 -o calm.flac
              nagi render box --cycles 12 --soundscape rain -o box.wav
            """
    )

    static let play = CommandSpec(
        name: "play",
        summary: "Play a breathing session live.",
        positionals: [PositionalSpec(name: "PATTERN", help: "A preset name or a pattern.", isOptional: true)],
        options: lengthOptions + [
            OptionSpec(names: ["--device"], valueName: "NAME", help: "ALSA device."),
            OptionSpec(names: ["--latency"], valueName: "MS", help: "Output buffer length in milliseconds."),
        ],
        exclusiveGroups: [["--cycles", "--minutes"]]
    )

    static let course = CommandSpec(
        name: "course",
        summary: "Work through a course of lessons.",
        subcommands: [
            CommandSpec(name: "list", summary: "List the built-in courses."),
            CommandSpec(name: "show", summary: "Show a course's lessons.",
                        positionals: [PositionalSpec(name: "NAME", help: "Course name.")]),
            CommandSpec(name: "export", summary: "Render every lesson of a course.",
                        positionals: [PositionalSpec(name: "NAME", help: "Course name.")],
                        options: [
                            OptionSpec(names: ["-o", "--output"], valueName: "DIR", help: "Folder for the tracks."),
                            OptionSpec(names: ["--jobs"], valueName: "N", help: "Lessons rendered at once."),
                        ]),
            CommandSpec(name: "next", summary: "Play the next lesson.",
                        positionals: [PositionalSpec(name: "NAME", help: "Course name.")]),
            CommandSpec(name: "status", summary: "Show progress.",
                        positionals: [PositionalSpec(name: "NAME", help: "Course name.")],
                        options: [OptionSpec(names: ["--reset"], help: "Forget the progress.")]),
        ]
    )

    static let plot = CommandSpec(
        name: "plot",
        summary: "Draw a pattern's breathing curve as SVG.",
        positionals: [PositionalSpec(name: "PATTERN", help: "A preset name or a pattern.")],
        options: [OptionSpec(names: ["-o", "--output"], valueName: "FILE.svg", help: "Where to write the SVG.")]
    )

    static let presets = CommandSpec(name: "presets", summary: "List the built-in presets.")

    static let help = CommandSpec(
        name: "help",
        summary: "Show help for a command.",
        positionals: [PositionalSpec(name: "COMMAND", help: "The command to explain.", isOptional: true)]
    )

    static let root = CommandSpec(
        name: "nagi",
        summary: "Render guided-breathing soundtracks.",
        options: [OptionSpec(names: ["--version"], help: "Print the version.")],
        subcommands: [describe, render, play, course, plot, presets, help]
    )

    /// Parses `line` split on spaces (no quoting) against the root spec.
    static func parse(_ line: String) throws(ArgumentError) -> ParsedArguments {
        try ArgumentParser.parse(line.split(separator: " ").map(String.init), for: root)
    }
}
