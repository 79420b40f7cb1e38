import Breath
import NagiKit
import Speech
import Synth

/// How the session guides the listener besides the tone: cues at phase changes (chimes, a spoken
/// word, or both), a count within phases, which voice speaks, a pack of recorded cues and their level.
///
/// Declared, read and checked here; `SoundOptions` turns it into the engine's request (NagiKit speaks the
/// words). In a course, a lesson may set `cues`, `count` and `voice`; an option given on the command line
/// wins over the lesson's.
struct GuidanceOptions: Equatable {
    /// What marks a phase change.
    enum Cues: String, CaseIterable {
        case chimes, voice, both, none

        /// Whether the soft chimes sound.
        var includesChimes: Bool { self == .chimes || self == .both }
        /// Whether a voice names each phase.
        var includesVoice: Bool { self == .voice || self == .both }
    }

    /// The flite voice that speaks cues and counts.
    enum Voice: String, CaseIterable {
        case slt, rms, awb, kal16
    }

    /// What counts the seconds within a phase.
    enum Count: String, CaseIterable {
        case none, ticks, voice
    }

    static let cueVolumeRange: ClosedRange<Double> = -30...12

    static let group = OptionGroup(
        title: "Guidance",
        options: [
            OptionSpec(names: ["--cues"], valueName: "C", help: "What marks each phase change: chimes (the default: a soft chime per phase kind), voice (a voice says \"breathe in\", \"hold\", \"breathe out\" or the pattern's own words, its first sound on the phase's first frame; Wim Hof's quick breaths pass unspoken), both, or none.", allowedValues: Cues.allCases.map(\.rawValue)),
            OptionSpec(names: ["--no-cues"], help: "The same as --cues none: no chimes and no voice (nothing else changes)."),
            OptionSpec(names: ["--voice"], valueName: "V", help: "The voice for spoken cues and counts (flite): slt (the default, female), rms (male), awb (male, Scottish), kal16 (male, plain).", allowedValues: Voice.allCases.map(\.rawValue)),
            OptionSpec(names: ["--count"], valueName: "K", help: "Counting within each phase: none (the default), ticks (a soft tick on every whole second, falling in pitch through the phase) or voice (the phase's word, then \"two\", \"three\", ... on each whole second while at least 0.8 s of the phase remains).", allowedValues: Count.allCases.map(\.rawValue)),
            OptionSpec(names: ["--cue-pack"], valueName: "DIR", help: "A folder of your own cue clips, played in place of the chimes and cut at the next phase change: inhale.*, hold.*, exhale.* and optionally hold-out.* (for holds after an exhale), in any format libsndfile reads, mono or stereo, at most 30 s each.", completion: .folder),
            OptionSpec(names: ["--cue-volume"], valueName: "DB", help: "Moves every guide sound (chimes, clips, words, ticks) by this many dB, from -30 to +12 (default 0; decimals are fine)."),
            OptionSpec(names: ["--countdown"], valueName: "N", help: "A get-ready lead-in of N whole seconds before the first inhale, 0 to 60 (default 0: none). With a voice (--cues voice|both or --count voice) it says \"get ready\" 2 s before the count, then the numbers N ... 1 on the whole seconds before the first inhale (\"three\" 3 s before it), so the lead-in is N + 2 s; with chimes only a soft tick marks those seconds; with --cues none it is silence. Every phase starts that much later; --minutes and the session's length still count the breathing alone."),
            OptionSpec(names: ["--end-bell"], help: "After the release, the stage chime rings (unless --cues none) and, with a voice, \"the session is complete\" follows 1 s later; the closing silence comes 4 s after the bell."),
        ],
        exclusiveGroups: [["--cues", "--no-cues"]]
    )

    var cues: Cues = .chimes
    var voice: Voice = .slt
    var count: Count = .none
    /// A folder of recorded cues, checked to exist.
    var cuePackPath: String?
    var cueVolumeDecibels: Double = 0
    /// Seconds of get-ready lead-in before the first inhale (0: none).
    var countdownSeconds = 0
    /// Whether an end bell follows the release.
    var endBell = false

    init(cues: Cues = .chimes, voice: Voice = .slt, count: Count = .none, cuePackPath: String? = nil, cueVolumeDecibels: Double = 0, countdownSeconds: Int = 0, endBell: Bool = false) {
        self.cues = cues
        self.voice = voice
        self.count = count
        self.cuePackPath = cuePackPath
        self.cueVolumeDecibels = cueVolumeDecibels
        self.countdownSeconds = countdownSeconds
        self.endBell = endBell
    }

    init(_ arguments: ParsedArguments) throws(CLIError) {
        try self.init(arguments, lesson: nil)
    }

    /// The options for one lesson of a course: the lesson's `cues`, `count` and `voice` where the command line
    /// gives none. Options that only matter to some lessons (`--voice` on a silent lesson) are not refused here.
    init(_ arguments: ParsedArguments, lesson: Course.Lesson?) throws(CLIError) {
        if let text = lesson?.cues, let choice = Cues(rawValue: text) { cues = choice }
        if let text = lesson?.count, let choice = Count(rawValue: text) { count = choice }
        if let text = lesson?.voice, let choice = Voice(rawValue: text) { voice = choice }
        do {
            if arguments.isSet("--no-cues") {
                cues = .none
            } else if let text = try arguments.choice("--cues"), let choice = Cues(rawValue: text) {
                cues = choice
            }
            if let text = try arguments.choice("--voice"), let choice = Voice(rawValue: text) {
                voice = choice
            }
            if let text = try arguments.choice("--count"), let choice = Count(rawValue: text) {
                count = choice
            }
            cueVolumeDecibels = try arguments.decimal("--cue-volume", in: Self.cueVolumeRange) ?? 0
            countdownSeconds = try arguments.int("--countdown", in: SessionFraming.countdownRange) ?? 0
        } catch {
            throw .arguments(error)
        }
        cuePackPath = arguments.value("--cue-pack")
        endBell = arguments.isSet("--end-bell")
        if lesson == nil {
            try validate(voiceGiven: arguments.isSet("--voice"), volumeGiven: arguments.isSet("--cue-volume"))
        } else {
            try checkCuePackFolder()
        }
    }

    /// The renderer's cue mode.
    var cueMode: CueMode {
        switch cues {
        case .chimes: .chimes
        case .voice: .voice
        case .both: .both
        case .none: .none
        }
    }

    /// The renderer's count mode.
    var countMode: CountMode {
        switch count {
        case .none: .none
        case .ticks: .ticks
        case .voice: .voice
        }
    }

    /// The settings that decide the countdown and ending's frames (`SessionFraming`) in `soundscape`, for the
    /// commands that place cue points, chapters, labels or a view before the sound is prepared.
    func framingSettings(soundscape: Soundscape) -> RenderSettings {
        var settings = RenderSettings(soundscape: soundscape, channelCount: 1, cues: cueMode, count: countMode)
        (settings.countdownSeconds, settings.endBell) = (countdownSeconds, endBell)
        return settings
    }

    /// The flite voice.
    var speechVoice: SpeechVoice {
        switch voice {
        case .slt: .slt
        case .rms: .rms
        case .awb: .awb
        case .kal16: .kal16
        }
    }

    /// Precedence, stated once: `--no-cues` is `--cues none` (the parser refuses the two together);
    /// `--voice` needs something spoken (`--cues voice|both` or `--count voice`); a cue pack replaces
    /// the chimes, so it needs `--cues chimes|both`; `--cue-volume` needs some cue or count to set.
    func validate(voiceGiven: Bool, volumeGiven: Bool) throws(CLIError) {
        let speaks = cues.includesVoice || count == .voice
        if voiceGiven, !speaks {
            throw .usage("--voice \(voice.rawValue) has nothing to say with --cues \(cues.rawValue); add --cues voice, --cues both or --count voice")
        }
        if cuePackPath != nil, !cues.includesChimes {
            throw .usage("--cue-pack plays in place of the chimes, but --cues is \(cues.rawValue); use --cues chimes or --cues both")
        }
        try checkCuePackFolder()
        if volumeGiven, cues == .none, count == .none {
            throw .usage("--cue-volume sets the level of cues, but --cues is none and --count is none")
        }
    }

    /// A cue pack path names an existing folder.
    private func checkCuePackFolder() throws(CLIError) {
        guard let cuePackPath else { return }
        guard !cuePackPath.isEmpty else {
            throw .arguments(.invalidValue(option: "--cue-pack", value: cuePackPath, expected: "a folder path"))
        }
        switch FileSystem.kind(of: cuePackPath) {
        case .folder: break
        case .missing: throw .noInput("no such cue pack folder '\(cuePackPath)'")
        case .regularFile, .other: throw .noInput("the cue pack '\(cuePackPath)' is not a folder")
        }
    }
}
