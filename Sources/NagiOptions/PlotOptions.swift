import Breath
import NagiKit
import NagiPlot
import Synth

/// `nagi plot` (and `nagi serve`'s `/api/plot.svg`): the session's plan as a standalone SVG — the level, the phases,
/// pitch, gain and the modulation envelope, computed from the same functions the renderer uses — read from the
/// command's options.
package struct PlotOptions {
    /// A path: the command line's alone.
    package static let output = Option<String>(["-o", "--output"], valueName: "FILE.svg|-", help: "The SVG to write, ending in .svg (default: <pattern>.svg here); - writes it to standard output.", completion: .file)
    package static let force = Flag(["--force"], help: "Replace an existing file.")
    package static let framing = FramingOptions(countdownHelp: "Draw a get-ready countdown of N seconds before the first inhale, shaded in the overview (as with --cues voice, whose words the plot shows: N + 2 s).", endBellHelp: "Draw the end bell after the release, shaded in the overview.")

    package static let spec = CommandSpec(
        name: "plot",
        summary: "Draw a session as an SVG: the horizon level, phases, pitch (Hz), gain (dB) and modulation.",
        positionals: [SessionOptions.patternPositional],
        groups: SessionOptions.groups + [SoundscapeOptions.group, BedOptions.group, BeatOptions.group],
        options: [output.spec, force.spec, RenderOptions.quiet.spec, framing.countdown.spec, framing.endBell.spec],
        discussion: """
        The plot shows the first cycles in detail and the whole session as an overview, with the words \
        `--cues voice` speaks under each cue mark. It is a \
        standalone SVG (no scripts, no outside fonts or files).

        Examples:
          nagi plot 4-7-8
          nagi plot wim-hof -o wim-hof.svg
          nagi plot longer-exhale-ramp --soundscape night
          nagi plot coherent --minutes 20 --beat 10:6
          nagi plot box --countdown 5 --end-bell
        """
    )

    /// PATTERN (or `--bpm`) at its length and rate.
    package let session: SessionOptions
    /// The plot, ready to draw.
    package let plot: SessionPlot

    /// Reads `plot`'s options (not its output's: `-o`, `--force` and `--quiet` are the command line's).
    package init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(NagiError) {
        session = try SessionOptions(arguments, catalog: catalog)
        let schedule = try session.schedule()
        let (soundscape, soundscapeName) = try SoundscapeOptions(arguments).resolve(catalog: catalog)
        let curves = ControlCurves(schedule: schedule, soundscape: soundscape)
        let words = PhaseWords.spoken(in: schedule, soundscape: soundscape, cues: .voice, count: .none).map { phase in
            phase.first { $0.frame == phase.first?.frame }?.words ?? ""
        }
        var plot = SessionPlot(schedule: schedule, curves: curves, title: session.title, subtitle: "\(session.name) · soundscape \(soundscapeName)", cueWords: words)
        plot.beat = try BeatOptions(arguments).beat
        var framingSettings = RenderSettings(soundscape: soundscape, channelCount: 1, cues: .voice)
        do { (framingSettings.countdownSeconds, framingSettings.endBell) = try Self.framing.read(arguments) } catch { throw .arguments(error) }
        plot.framing = SessionFraming(schedule: schedule, settings: framingSettings)
        let bed = try BedOptions(arguments)
        if bed.path != nil || soundscape.bed != nil {
            plot.bedLevelDecibels = bed.levelDecibels ?? soundscape.bedLevelDecibels ?? BedMix.defaultLevelDecibels
        } else if bed.levelDecibels != nil {
            throw .usage("--bed-level sets the level of a bed, but there is none; add --bed FILE")
        }
        self.plot = plot
    }

    /// The standalone SVG.
    package var svg: String { plot.svg() }
}
