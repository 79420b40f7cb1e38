import NagiSystem
import Breath
import NagiKit
import Speech
import Synth

/// How the session guides the listener besides the tone: cues at phase changes (chimes, a spoken
/// word, or both), a count within phases, which voice speaks, a pack of recorded cues and their level.
///
/// Declared, read and checked here, and kept as given (nil where an option is absent): `SoundOptions` hands them
/// to NagiKit's `SoundtrackOptions`, where a course lesson's `cues`, `count` and `voice` apply to what the command
/// line leaves unset.
package struct GuidanceOptions: Equatable {
    package static let cueVolumeRange: ClosedRange<Double> = -30...12

    package static let cues = Option<CueMode>(["--cues"], valueName: "C", help: "What marks each phase change: chimes (the default: a soft chime per phase kind), voice (a voice says \"breathe in\", \"hold\", \"breathe out\" or the pattern's own words, its first sound on the phase's first frame; Wim Hof's quick breaths pass unspoken), both, or none.", overHTTP: true)
    package static let noCues = Flag(["--no-cues"], help: "The same as --cues none: no chimes and no voice (nothing else changes).", overHTTP: true)
    package static let voice = Option<SpeechVoice>(["--voice"], valueName: "V", help: "The voice for spoken cues and counts (flite): slt (the default, female), rms (male), awb (male, Scottish), kal16 (male, plain).", overHTTP: true)
    package static let count = Option<CountMode>(["--count"], valueName: "K", help: "Counting within each phase: none (the default), ticks (a soft tick on every whole second, falling in pitch through the phase) or voice (the phase's word, then \"two\", \"three\", ... on each whole second while at least 0.8 s of the phase remains).", overHTTP: true)
    /// A folder; over HTTP by name from the user's own folders, never as a path.
    package static let cuePack = Option<String>(["--cue-pack"], valueName: "DIR", help: "A folder of your own cue clips, played in place of the chimes and cut at the next phase change: inhale.*, hold.*, exhale.* and optionally hold-out.* (for holds after an exhale), in any format libsndfile reads, mono or stereo, at most 30 s each.", completion: .folder, overHTTP: true)
    package static let cueVolume = Option<Double>(["--cue-volume"], valueName: "DB", help: "Moves every guide sound (chimes, clips, words, ticks) by this many dB, from -30 to +12 (default 0; decimals are fine).", decimalIn: cueVolumeRange, overHTTP: true)
    package static let framing = FramingOptions(countdownHelp: "A get-ready lead-in of N whole seconds before the first inhale, 0 to 60 (default 0: none). With a voice (--cues voice|both or --count voice) it says \"get ready\" 2 s before the count, then the numbers N ... 1 on the whole seconds before the first inhale (\"three\" 3 s before it), so the lead-in is N + 2 s; with chimes only a soft tick marks those seconds; with --cues none it is silence. Every phase starts that much later; --minutes and the session's length still count the breathing alone.", endBellHelp: "After the release, the stage chime rings (unless --cues none) and, with a voice, \"the session is complete\" follows 1 s later; the closing silence comes 4 s after the bell.")

    package static let group = OptionGroup(
        title: "Guidance",
        options: [Self.cues.spec, noCues.spec, Self.voice.spec, Self.count.spec, cuePack.spec, cueVolume.spec, framing.countdown.spec, framing.endBell.spec],
        exclusiveGroups: [[Self.cues.name, noCues.name]]
    )

    /// `--cues` (or `--no-cues`) as given.
    package var cues: CueMode?
    /// `--voice` as given.
    package var voice: SpeechVoice?
    /// `--count` as given.
    package var count: CountMode?
    /// A folder of recorded cues, checked to exist.
    package var cuePackPath: String?
    package var cueVolumeDecibels: Double = 0
    /// Seconds of get-ready lead-in before the first inhale (0: none).
    package var countdownSeconds = 0
    /// Whether an end bell follows the release.
    package var endBell = false

    package init(cues: CueMode? = nil, voice: SpeechVoice? = nil, count: CountMode? = nil, cuePackPath: String? = nil, cueVolumeDecibels: Double = 0, countdownSeconds: Int = 0, endBell: Bool = false) {
        self.cues = cues
        self.voice = voice
        self.count = count
        self.cuePackPath = cuePackPath
        self.cueVolumeDecibels = cueVolumeDecibels
        self.countdownSeconds = countdownSeconds
        self.endBell = endBell
    }

    /// Reads the options. `forLessons`: they apply to a course's lessons, each with its own `cues`, `count` and
    /// `voice`, so options that only matter to some lessons (`--voice` on a silent lesson) are not refused here.
    package init(_ arguments: ParsedArguments, forLessons: Bool = false) throws(NagiError) {
        do {
            cues = arguments[Self.noCues] ? CueMode.none : try arguments[Self.cues]
            voice = try arguments[Self.voice]
            count = try arguments[Self.count]
            cueVolumeDecibels = try arguments[Self.cueVolume] ?? 0
            (countdownSeconds, endBell) = try Self.framing.read(arguments)
        } catch {
            throw .arguments(error)
        }
        cuePackPath = arguments.text(of: Self.cuePack)
        if forLessons {
            try checkCuePackFolder()
        } else {
            try validate(volumeGiven: arguments.isSet(Self.cueVolume))
        }
    }

    /// Precedence, stated once: `--no-cues` is `--cues none` (the parser refuses the two together);
    /// `--voice` needs something spoken (`--cues voice|both` or `--count voice`); a cue pack replaces
    /// the chimes, so it needs `--cues chimes|both`; `--cue-volume` needs some cue or count to set.
    private func validate(volumeGiven: Bool) throws(NagiError) {
        let cues = self.cues ?? .chimes
        let count = self.count ?? .none
        let speaks = cues.speaks || count == .voice
        if let voice, !speaks {
            throw .usage("--voice \(voice.rawValue) has nothing to say with --cues \(cues.rawValue); add --cues voice, --cues both or --count voice")
        }
        if cuePackPath != nil, !cues.chimes {
            throw .usage("--cue-pack plays in place of the chimes, but --cues is \(cues.rawValue); use --cues chimes or --cues both")
        }
        try checkCuePackFolder()
        if volumeGiven, cues == .none, count == .none {
            throw .usage("--cue-volume sets the level of cues, but --cues is none and --count is none")
        }
    }

    /// A cue pack path names an existing folder.
    private func checkCuePackFolder() throws(NagiError) {
        guard let cuePackPath else { return }
        guard !cuePackPath.isEmpty else {
            throw .arguments(.invalidValue(option: Self.cuePack.name, value: cuePackPath, expected: "a folder path"))
        }
        switch FileKind.of(cuePackPath) {
        case .folder: break
        case .missing: throw .noInput("no such cue pack folder '\(cuePackPath)'")
        case .regularFile, .pipe, .socket, .device, .symbolicLink, .other: throw .noInput("the cue pack '\(cuePackPath)' is not a folder")
        }
    }
}
