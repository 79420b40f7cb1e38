import Breath
import NagiDocuments
import NagiKit

/// PATTERN (or `--bpm` / `--ratio`) resolved to a session at the length and rate its command line asks
/// for (`PaceOptions`, `SessionLengthOptions`, `SampleRateOptions`).
package struct SessionOptions {
    /// What was asked for, resolved.
    package var session: Session
    /// A short name for messages and default file names ("4-7-8", "box").
    package var name: String
    /// Frames per second.
    package var sampleRate: Int

    /// The groups every session command takes: a pace in place of PATTERN, the length and the sample rate.
    package static let groups = [PaceOptions.group] + lengthAndRateGroups
    /// The length and the sample rate alone, for `course next`, whose lesson names the pattern.
    package static let lengthAndRateGroups = [SessionLengthOptions.group, SampleRateOptions.group]
    /// The pattern a session command plays when neither PATTERN nor `--bpm` is given: one rule for every command
    /// (render, play, describe, plot), so what `describe` shows is what `render` writes.
    package static let defaultPattern = "4-7-8"
    /// PATTERN for the commands that default to `defaultPattern`.
    package static let patternPositional = PositionalSpec(name: "PATTERN", help: patternHelp + " Default: \(defaultPattern).", isOptional: true, completion: .patterns)
    package static let patternHelp = "A preset name (see `nagi presets`), an inline pattern such as 4-7-8 or 5.5-5.5 (seconds; 0 skips a phase), or a path to a pattern or session JSON file. Or give --bpm instead."

    /// PATTERN for a command that plays `defaultPattern` when none is given.
    package static func patternPositional(defaultPattern: String) -> PositionalSpec {
        PositionalSpec(name: "PATTERN", help: patternHelp + " Default: \(defaultPattern).", isOptional: true, completion: .patterns)
    }

    /// A session already resolved (a course lesson's), named `name`, at `sampleRate`.
    package init(session: Session, name: String, sampleRate: Int) {
        self.session = session
        self.name = name
        self.sampleRate = sampleRate
    }

    /// Resolves the options; `defaultPattern` is used when PATTERN is absent. PATTERN is the positional at
    /// `patternIndex` (`resonance analyze RR_FILE PATTERN` has it second).
    package init(_ arguments: ParsedArguments, catalog: PresetCatalog, defaultPattern: String = SessionOptions.defaultPattern, patternIndex: Int = 0) throws(NagiError) {
        let paceOptions = try PaceOptions(arguments)
        let reference = arguments.positionals.count > patternIndex ? arguments.positionals[patternIndex] : nil
        try paceOptions.validate(pattern: reference)
        do {
            var session: Session
            let name: String
            if let pace = paceOptions.pace, let paceName = paceOptions.name {
                session = Session(pattern: pace.pattern)
                name = paceName
            } else {
                let chosen = reference ?? defaultPattern
                let decoder = SessionDecoder(catalog: catalog, loadFile: PresetFiles.loadFile)
                let (resolved, resolvedName) = try decoder.resolveArgument(chosen, loadFile: PresetFiles.loadFile)
                session = resolved.session
                name = resolvedName
                if let ratio = paceOptions.ratio {
                    guard let repaced = session.withRatio(ratio) else {
                        throw NagiError.usage("--ratio goes with --bpm, or with a session paced in breaths a minute such as resonance-steps; '\(chosen)' is not")
                    }
                    session = repaced
                }
            }
            session = try SessionLengthOptions(arguments).apply(to: session)
            // Refuse what cannot be scheduled before any work or output.
            _ = try SessionExpander.totalMicroseconds(of: session.stages)
            self.session = session
            self.name = name
        } catch let error as BreathError {
            throw .breath(error)
        } catch let error as NagiError {
            throw error
        } catch {
            throw .usage("\(error)")
        }
        // A command that takes no --rate (resonance analyze) schedules at the default rate.
        sampleRate = arguments.command.option(named: SampleRateOptions.rate.name) == nil ? SampleRateOptions.defaultSampleRate : try SampleRateOptions(arguments).sampleRate
    }

    /// The schedule at the chosen rate.
    package func schedule() throws(NagiError) -> Schedule {
        let schedule: Schedule
        do {
            schedule = try Schedule(session: session, sampleRate: sampleRate)
        } catch {
            throw .breath(error)
        }
        try Self.refuseSubsamplePhases(schedule)
        return schedule
    }

    /// Refuses a schedule with a phase that lasts but spans no frame (`0.00001-0.00001` at 48 kHz): it would have
    /// no sound, no boundary of its own and no chapter, so the sentence says what is wrong with the pattern.
    package static func refuseSubsamplePhases(_ schedule: Schedule) throws(NagiError) {
        guard let index = schedule.phases.firstIndex(where: { $0.durationMicroseconds > 0 && $0.frameCount == 0 }) else { return }
        let phase = schedule.phases[index]
        let sampleMicroseconds = Int64((1_000_000 / Double(schedule.sampleRate)).rounded(.up))
        throw .breath(.limitExceeded(reason: "phase \(index + 1) (\(phase.kind.displayName), \(Microseconds.formatSeconds(phase.durationMicroseconds)) s) is shorter than one sample at \(schedule.sampleRate) Hz (\(Microseconds.formatSeconds(sampleMicroseconds)) s); make every phase at least that long"))
    }

    /// A title for tags and headings: the session's own, or the pattern name.
    package var title: String { session.title ?? name }

    /// The title tag's text: the title, the number of rounds of a session that is one repeated group (which
    /// `--cycles` and `--minutes` change, so no title written in a file can state it), and the length.
    package func titleTag(totalMicroseconds: Int64) -> String {
        var text = title
        if session.stages.count == 1, case let .group(count, _) = session.stages[0] {
            text += ", " + NumberText.count(count, "round")
        }
        return text + " (\(Microseconds.formatClock(totalMicroseconds).dropLast(4)))"
    }
}
