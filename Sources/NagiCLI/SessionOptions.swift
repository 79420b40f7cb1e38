import Breath

/// The options every session command shares: PATTERN (or `--bpm` / `--ratio`), `--cycles` / `--minutes` and `--rate`.
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
    /// A pace in place of PATTERN, for `describe`, `render`, `play` and `plot`.
    static let paceOptions: [OptionSpec] = [
        OptionSpec(names: ["--bpm"], valueName: "N", help: "Breaths a minute in place of PATTERN, 1 to 30 (decimals allowed): one breath lasts 60/N s, rounded up to the microsecond."),
        OptionSpec(names: ["--ratio"], valueName: "A:B", help: "How --bpm divides a breath: inhale:exhale, or inhale:hold:exhale:hold (default 1:1); also re-paces resonance-steps."),
    ]
    static let rateOption = OptionSpec(names: ["--rate"], valueName: "HZ", help: "Sample rate in Hz, 8000 to 192000 (default 48000).")
    static let exclusiveGroups = [["--cycles", "--minutes"]]
    static let patternPositional = PositionalSpec(name: "PATTERN", help: "A preset name (see `nagi presets`), an inline pattern such as 4-7-8 or 5.5-5.5 (seconds; 0 skips a phase), or a path to a pattern or session JSON file. Or give --bpm instead.", isOptional: true)

    /// Resolves the options; `defaultPattern` is used when PATTERN is absent.
    init(_ arguments: ParsedArguments, catalog: PresetCatalog, defaultPattern: String? = nil) throws(CLIError) {
        let ratio = try Self.ratio(arguments)
        let pace = try Self.pace(arguments, ratio: ratio)
        let reference = arguments.positionals.first
        if pace != nil, let reference {
            throw .usage("give either PATTERN ('\(reference)') or --bpm, not both")
        }
        do {
            var session: Session
            let name: String
            if let pace {
                session = Session(pattern: pace.pattern)
                name = "\(pace.rateText)bpm" + (ratio.map { "-" + String($0.text.map { $0 == ":" ? "-" : $0 }) } ?? "")
            } else {
                guard let reference = reference ?? defaultPattern else {
                    throw CLIError.usage("missing PATTERN; name a preset such as 4-7-8 or box, write one like 4-7-8, or give --bpm N")
                }
                let decoder = SessionDecoder(catalog: catalog)
                let (resolved, resolvedName) = try decoder.resolveArgument(reference, loadFile: PresetEnvironment.loadFile)
                session = resolved.session
                name = resolvedName
                if let ratio {
                    guard let repaced = session.withRatio(ratio) else {
                        throw CLIError.usage("--ratio goes with --bpm, or with a session paced in breaths a minute such as resonance-steps; '\(reference)' is not")
                    }
                    session = repaced
                }
            }
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

    /// `--ratio`, if given.
    static func ratio(_ arguments: ParsedArguments) throws(CLIError) -> BreathRatio? {
        guard let text = arguments.value("--ratio") else { return nil }
        do {
            return try BreathRatio.parse(text)
        } catch {
            throw .arguments(.invalidValue(option: "--ratio", value: text, expected: error.expected))
        }
    }

    /// `--bpm` at `ratio` (1:1 when none), if given.
    static func pace(_ arguments: ParsedArguments, ratio: BreathRatio?) throws(CLIError) -> BreathPace? {
        guard let text = arguments.value("--bpm") else { return nil }
        do {
            return try BreathPace(breathsPerMinute: text, ratio: ratio ?? .even)
        } catch {
            throw .arguments(.invalidValue(option: "--bpm", value: text, expected: error.expected))
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
