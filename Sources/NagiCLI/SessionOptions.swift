import Breath
import NagiDocuments

/// The options every session command shares: PATTERN, `--cycles` / `--minutes` and `--rate`.
struct SessionOptions {
    /// What was asked for, resolved.
    var session: Session
    /// A short name for messages and default file names ("4-7-8", "box").
    var name: String
    /// Frames per second.
    var sampleRate: Int

    /// The option specs, shared by `describe`, `render`, `play` and `plot`.
    static let lengthOptions: [OptionSpec] = [
        OptionSpec(names: ["--cycles"], valueName: "N", help: "Breath cycles to play (a session of stages: whole passes), overriding the preset's length."),
        OptionSpec(names: ["--minutes"], valueName: "M", help: "About this many minutes, rounded to whole cycles (at least one)."),
    ]
    static let rateOption = OptionSpec(names: ["--rate"], valueName: "HZ", help: "Sample rate in Hz, 8000 to 192000 (default 48000).")
    static let exclusiveGroups = [["--cycles", "--minutes"]]
    static let patternPositional = PositionalSpec(name: "PATTERN", help: "A preset name (see `nagi presets`), an inline pattern such as 4-7-8 or 5.5-5.5 (seconds; 0 skips a phase), or a path to a pattern or session JSON file.")

    /// Resolves the options; `defaultPattern` is used when PATTERN is absent.
    init(_ arguments: ParsedArguments, catalog: PresetCatalog, defaultPattern: String? = nil) throws(CLIError) {
        guard let reference = arguments.positionals.first ?? defaultPattern else {
            throw .usage("missing PATTERN; name a preset such as 4-7-8 or box, or write one like 4-7-8")
        }
        do {
            let decoder = SessionDecoder(catalog: catalog)
            let (resolved, name) = try decoder.resolveArgument(reference, loadFile: PresetEnvironment.loadFile)
            var session = resolved.session
            if let length = try Self.length(arguments) {
                session = try session.withLength(length)
            }
            // Refuse what cannot be scheduled before any work or output.
            _ = try SessionExpander.totalMicroseconds(of: session.stages)
            self.session = session
            self.name = name
        } catch let error as BreathError {
            throw .breath(error)
        } catch let error as CLIError {
            throw error
        } catch {
            throw .usage("\(error)")
        }
        do {
            sampleRate = try arguments.int("--rate", in: Schedule.sampleRateRange) ?? 48000
        } catch {
            throw .arguments(error)
        }
    }

    /// The length asked for on the command line, if any.
    static func length(_ arguments: ParsedArguments) throws(CLIError) -> SessionLength? {
        do {
            if let cycles = try arguments.int("--cycles", in: 1...SessionExpander.phaseLimit) {
                return .cycles(cycles)
            }
        } catch {
            throw .arguments(error)
        }
        if let text = arguments.value("--minutes") {
            guard let microseconds = Microseconds.parseDecimal(Substring(text), unitMicroseconds: 60 * Microseconds.perSecond), microseconds > 0 else {
                throw .arguments(.invalidValue(option: "--minutes", value: text, expected: "a number of minutes above 0 and at most 1440 (24 hours), like 5 or 2.5"))
            }
            return .duration(microseconds: microseconds)
        }
        return nil
    }

    /// The schedule at the chosen rate.
    func schedule() throws(CLIError) -> Schedule {
        do {
            return try Schedule(session: session, sampleRate: sampleRate)
        } catch {
            throw .breath(error)
        }
    }

    /// A title for tags and headings: the session's own, or the pattern name.
    var title: String { session.title ?? name }
}
