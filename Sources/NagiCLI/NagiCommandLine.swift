import NagiOptions
import Breath
import CNagiSystem
import FoundationEssentials
import Glibc
import NagiDocuments

/// The `nagi` command line: parses, runs one command, reports, and exits with a sysexits code.
public enum NagiCommandLine {
    /// The version `nagi --version` prints.
    public static let version = "0.1.0"

    static let versionFlag = Flag(["--version"], help: "Print the version and exit.")
    static let man = Flag(["--man"], help: "Print the manual page (roff) for all commands, as installed from docs/nagi.1.")

    /// The root command and its subcommands.
    static var rootSpec: CommandSpec {
        CommandSpec(
            name: "nagi",
            summary: "Turn a breathing practice into sound: soundtracks rendered to files or played live.",
            options: [versionFlag.spec],
            discussion: """
            Run `nagi help COMMAND [SUBCOMMAND]` or `nagi COMMAND --help` for a command's options, \
            `nagi completions bash|zsh|fish` for shell completion, `man nagi` (docs/nagi.1) for the manual.

            \(ExitCode.sentence)
            """,
            subcommands: commands.map(\.spec) + [helpSpec]
        )
    }

    /// One runnable command.
    struct Command: Sendable {
        var spec: CommandSpec
        var run: @Sendable (ParsedArguments) throws(NagiError) -> Void
    }

    static let commands: [Command] = [
        Command(spec: RenderCommand.spec, run: RenderCommand.run),
        Command(spec: PlayCommand.spec, run: PlayCommand.run),
        Command(spec: DescribeCommand.spec, run: DescribeCommand.run),
        Command(spec: PlotCommand.spec, run: PlotCommand.run),
        Command(spec: CourseCommand.spec, run: CourseCommand.run),
        Command(spec: ResonanceCommand.spec, run: ResonanceCommand.run),
        Command(spec: PresetsCommand.spec, run: PresetsCommand.run),
        Command(spec: ServeCommand.spec, run: ServeCommand.run),
        Command(spec: CompletionsCommand.spec, run: CompletionsCommand.run),
    ]

    static let helpSpec = CommandSpec(
        name: "help",
        summary: "Show help for nagi or one of its commands.",
        positionals: [
            PositionalSpec(name: "COMMAND", help: "The command to explain.", isOptional: true, completion: .commands),
            PositionalSpec(name: "SUBCOMMAND", help: "A subcommand of it (`nagi help course next`).", isOptional: true, completion: .commands),
        ],
        options: [man.spec]
    )

    /// Runs `arguments` (argv, program name first) and exits with the command's code.
    public static func exitAfterRunning(_ arguments: [String]) -> Never {
        nagi_ignore_sigpipe()
        exit(run(Array(arguments.dropFirst())))
    }

    /// Runs one command line (without the program name) in `context` and returns the exit code: the command's, or
    /// that of a write to standard output that failed (74, or 141 when its reader has gone). With a context of the
    /// caller's, what the command prints goes to its sinks and its environment is the context's: runs in process
    /// can go side by side.
    public static func run(_ arguments: [String], context: CommandContext = .process) -> Int32 {
        do throws(NagiError) {
            try context.bound { () throws(NagiError) in
                defer { _ = Console.takeStandardOutputFault() }
                try dispatch(arguments)
                if let fault = Console.takeStandardOutputFault() { throw fault }
            }
            return 0
        } catch .stoppedEarly {
            // The player's last line already says it stopped early.
            return NagiError.stoppedEarly.exitCode
        } catch {
            // The stop signal's number is the process's (`NagiError.stopSignal`); a host's comes from its context.
            var error = error
            if case .interrupted = error, !context.ownsSignals, let signal = context.stopSignal() { error = .interrupted(signal: signal) }
            Console.report(error, in: context)
            return error.exitCode
        }
    }

    static func dispatch(_ arguments: [String]) throws(NagiError) {
        let root = rootSpec
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, for: root)
        } catch {
            throw .arguments(error)
        }
        let path = parsed.commandPath
        if parsed.isHelpRequested {
            Console.out(UsageText.help(for: parsed.command, commandPath: (["nagi"] + path).joined(separator: " "), width: helpWidth) + "\n")
            return
        }
        guard let first = path.first else {
            if parsed[versionFlag] {
                Console.out("nagi \(version)\n")
            } else {
                Console.out(UsageText.help(for: root, commandPath: "nagi", width: helpWidth) + "\n")
            }
            return
        }
        if first == "help" {
            if parsed[man] {
                guard parsed.positionals.isEmpty else { throw .usage("--man prints the whole manual; give no COMMAND with it") }
                Console.out(ManPage.roff(root: root))
                return
            }
            try showHelp(parsed.positionals, root: root)
            return
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            throw .usage("unknown command '\(first)'")
        }
        try command.run(parsed)
    }

    /// The columns a help page is laid out for: the terminal's when standard output is one, else
    /// `UsageText.lineWidth` (a pipe, a file, a run in process).
    static var helpWidth: Int {
        CommandContext.current.standardOutputIsTerminal ? LiveView.terminalSize().columns : UsageText.lineWidth
    }

    /// The help page of the command `words` name (`["course", "next"]`), at any depth.
    static func showHelp(_ words: [String], root: CommandSpec) throws(NagiError) {
        var spec = root
        var path = ["nagi"]
        for word in words {
            guard let subcommand = spec.subcommand(named: word) else {
                let names = spec.subcommands.map(\.name)
                // `nagi help render extra`: render has no subcommands to name.
                guard !names.isEmpty else { throw .arguments(.unexpectedArgument(word)) }
                // The same reach as `nagi foo`: three edits would take "foo" to "plot".
                throw .arguments(.unknownCommand(word, suggestion: nearestNames(to: word, among: names, maxDistance: suggestionDistance(for: word)).first))
            }
            spec = subcommand
            path.append(word)
        }
        Console.out(UsageText.help(for: spec, commandPath: path.joined(separator: " "), width: helpWidth) + "\n")
    }
}
