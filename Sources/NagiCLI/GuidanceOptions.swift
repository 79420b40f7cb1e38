
/// How the session guides the listener besides the tone: cues at phase changes (chimes, a spoken
/// word, or both), a count within phases, which voice speaks, a pack of recorded cues and their level.
///
/// Declared, read and checked here; the renderer takes the typed value.
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
            OptionSpec(names: ["--cues"], valueName: "C", help: "What marks each phase change: chimes (the default: a soft chime), voice (a voice says \"breathe in\", \"hold\", \"breathe out\"), both, or none.", allowedValues: Cues.allCases.map(\.rawValue)),
            OptionSpec(names: ["--no-cues"], help: "The same as --cues none: no chimes and no voice (nothing else changes)."),
            OptionSpec(names: ["--voice"], valueName: "V", help: "The voice for spoken cues and counts (flite): slt (the default, female), rms (male), awb (male, Scottish), kal16 (male, plain).", allowedValues: Voice.allCases.map(\.rawValue)),
            OptionSpec(names: ["--count"], valueName: "K", help: "Counting within each phase: none (the default), ticks (a soft tick each second) or voice (the voice counts the seconds).", allowedValues: Count.allCases.map(\.rawValue)),
            OptionSpec(names: ["--cue-pack"], valueName: "DIR", help: "A folder of recorded cues (inhale.wav, hold.wav, exhale.wav) to use instead of the voice.", completion: .folder),
            OptionSpec(names: ["--cue-volume"], valueName: "DB", help: "The cues' level against the tone, in dB from -30 to +12 (default 0; decimals are fine)."),
        ],
        exclusiveGroups: [["--cues", "--no-cues"]]
    )

    var cues: Cues = .chimes
    var voice: Voice = .slt
    var count: Count = .none
    /// A folder of recorded cues, checked to exist.
    var cuePackPath: String?
    var cueVolumeDecibels: Double = 0

    init(cues: Cues = .chimes, voice: Voice = .slt, count: Count = .none, cuePackPath: String? = nil, cueVolumeDecibels: Double = 0) {
        self.cues = cues
        self.voice = voice
        self.count = count
        self.cuePackPath = cuePackPath
        self.cueVolumeDecibels = cueVolumeDecibels
    }

    init(_ arguments: ParsedArguments) throws(CLIError) {
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
        } catch {
            throw .arguments(error)
        }
        cuePackPath = arguments.value("--cue-pack")
        try validate(voiceGiven: arguments.isSet("--voice"), volumeGiven: arguments.isSet("--cue-volume"))
    }

    /// Precedence, stated once: `--no-cues` is `--cues none` (the parser refuses the two together);
    /// `--voice` needs something spoken (`--cues voice|both` or `--count voice`); a cue pack replaces
    /// the voice, so it needs spoken cues and no `--voice`; `--cue-volume` needs some cue or count to set.
    func validate(voiceGiven: Bool, volumeGiven: Bool) throws(CLIError) {
        let speaks = cues.includesVoice || count == .voice
        if voiceGiven, !speaks {
            throw .usage("--voice \(voice.rawValue) has nothing to say with --cues \(cues.rawValue); add --cues voice, --cues both or --count voice")
        }
        if let cuePackPath {
            guard !cuePackPath.isEmpty else {
                throw .arguments(.invalidValue(option: "--cue-pack", value: cuePackPath, expected: "a folder path"))
            }
            guard cues.includesVoice else {
                throw .usage("--cue-pack replaces spoken cues, but --cues is \(cues.rawValue); add --cues voice or --cues both")
            }
            if voiceGiven {
                throw .usage("--cue-pack and --voice both choose what speaks the cues; give only one")
            }
            switch FileSystem.kind(of: cuePackPath) {
            case .folder: break
            case .missing: throw .noInput("no such cue pack folder '\(cuePackPath)'")
            case .regularFile, .other: throw .noInput("the cue pack '\(cuePackPath)' is not a folder")
            }
        }
        if volumeGiven, cues == .none, count == .none {
            throw .usage("--cue-volume sets the level of cues, but --cues is none and --count is none")
        }
    }
}
