import Breath
import CNagiSystem
import FoundationEssentials
import Glibc
import NagiDocuments

/// The `nagi` command line: parses, runs one command, reports, and exits with a sysexits code.
public enum NagiCommandLine {
    /// The version `nagi --version` prints.
    public static let version = "0.1.0"

    /// The root command and its subcommands.
    static var rootSpec: CommandSpec {
        CommandSpec(
            name: "nagi",
            summary: "Turn a breathing practice into sound: soundtracks rendered to files or played live.",
            options: [OptionSpec(names: ["--version"], help: "Print the version and exit.")],
            discussion: """
            Run `nagi help COMMAND` or `nagi COMMAND --help` for a command's options.

            Exit codes: 0 done, 64 bad arguments, 65 bad JSON content, 66 no such file or preset, \
            69 audio device unavailable, 73 cannot create the output, 74 I/O error, \
            130 interrupted (Ctrl-C), 143 stopped (SIGTERM).
            """,
            subcommands: commands.map(\.spec) + [helpSpec]
        )
    }

    /// One runnable command.
    struct Command: Sendable {
        var spec: CommandSpec
        var run: @Sendable (ParsedArguments) throws(CLIError) -> Void
    }

    static let commands: [Command] = [
        Command(spec: RenderCommand.spec, run: RenderCommand.run),
        Command(spec: PlayCommand.spec, run: PlayCommand.run),
        Command(spec: DescribeCommand.spec, run: DescribeCommand.run),
        Command(spec: PlotCommand.spec, run: PlotCommand.run),
        Command(spec: CourseCommand.spec, run: CourseCommand.run),
        Command(spec: PresetsCommand.spec, run: PresetsCommand.run),
    ]

    static let helpSpec = CommandSpec(
        name: "help",
        summary: "Show help for nagi or one of its commands.",
        positionals: [PositionalSpec(name: "COMMAND", help: "The command to explain.", isOptional: true)]
    )

    /// Runs `arguments` (argv, program name first) and exits with the command's code.
    public static func exitAfterRunning(_ arguments: [String]) -> Never {
        nagi_ignore_sigpipe()
        exit(run(Array(arguments.dropFirst())))
    }

    /// Runs one command line (without the program name) and returns the exit code.
    public static func run(_ arguments: [String]) -> Int32 {
        do {
            try dispatch(arguments)
            return 0
        } catch {
            Console.report(error)
            return error.exitCode
        }
    }

    static func dispatch(_ arguments: [String]) throws(CLIError) {
        let root = rootSpec
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, for: root)
        } catch {
            throw .arguments(error)
        }
        let path = parsed.commandPath
        if parsed.isHelpRequested {
            Console.out(UsageText.help(for: parsed.command, commandPath: (["nagi"] + path).joined(separator: " ")) + "\n")
            return
        }
        guard let first = path.first else {
            if parsed.isSet("--version") {
                Console.out("nagi \(version)\n")
            } else {
                Console.out(UsageText.help(for: root, commandPath: "nagi") + "\n")
            }
            return
        }
        if first == "help" {
            try showHelp(parsed.positionals.first, root: root)
            return
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            throw .usage("unknown command '\(first)'")
        }
        try command.run(parsed)
    }

    static func showHelp(_ name: String?, root: CommandSpec) throws(CLIError) {
        guard let name else {
            Console.out(UsageText.help(for: root, commandPath: "nagi") + "\n")
            return
        }
        guard let spec = root.subcommand(named: name) else {
            throw .arguments(.unknownCommand(name, suggestion: NearestNames.find(name, among: root.subcommands.map(\.name), maxDistance: 3).first))
        }
        Console.out(UsageText.help(for: spec, commandPath: "nagi \(name)") + "\n")
    }
}
