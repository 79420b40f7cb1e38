import AudioFile
import BedSource
import Breath
import NagiBase
import GuideSources

/// Every way a request (a command line or an HTTP request) can fail: its fault category and one line for the user.
///
/// The layers turn it into what their users meet: the command line an exit code (`NagiError+ExitCode` in NagiCLI),
/// the server a status.
package enum NagiError: Error {
    case arguments(ArgumentError)
    case breath(BreathError)
    case audioFile(AudioFileError)
    /// A cue pack that cannot be used (66 missing, 65 not audio or too long, 74 a failing read).
    case cuePack(CuePackError)
    /// Spoken guide words flite or libsoxr could not turn into a clip (65 when the words must change).
    case spokenCue(SpokenCueError)
    /// Bad content in a file or option, such as guide words that cannot be spoken (exit 65).
    case data(String)
    /// A bed recording that cannot be used (66 missing, 65 not audio or empty, 74 a failed read).
    case bed(BedStreamError)
    /// A bad combination of otherwise valid options (exit 64).
    case usage(String)
    /// A file or folder named on the command line that does not exist (exit 66).
    case noInput(String)
    /// A file nagi reads refused by `InputFile`'s rule (66) or failing part way (74).
    case input(InputFileError)
    /// The output cannot be created (exit 73).
    case cannotCreate(String)
    /// Reading or writing failed part-way (exit 74).
    case io(String)
    /// An audio device is unavailable (exit 69).
    case unavailable(String)
    /// Stopped by SIGINT (130) or SIGTERM (143).
    case interrupted(signal: Int32)
    /// Live playback ended early by the listener (q or Esc): exit 1, after the view has said so.
    case stoppedEarly

    /// What kind of fault it is, in the words every layer shares (the server answers a status for it, the command line
    /// an exit code); nil for a run stopped by a signal or by the listener, which is no fault of the request.
    package var category: FaultCategory? {
        switch self {
        case .arguments, .usage: .usage
        case let .breath(error): error.category
        case let .audioFile(error): error.category
        case let .cuePack(error): error.category
        case let .spokenCue(error): error.category
        case .data: .badData
        case let .bed(error): error.category
        case let .input(error): error.category
        case .noInput: .missingInput
        case .unavailable: .unavailable
        case .cannotCreate: .cannotCreate
        case .io: .inputOutput
        case .interrupted, .stoppedEarly: nil
        }
    }

    /// One line naming the fault and what would be right (without the `nagi: error: ` prefix).
    package var message: String {
        switch self {
        case let .arguments(error): UsageText.message(for: error)
        case let .breath(error):
            if case .notFound = error { error.message + "; `nagi presets` lists them, and a path to a JSON file works too" } else { error.message }
        case let .audioFile(error):
            if case .targetExists = error { error.message + "; use --force to replace it" } else { error.message }
        case let .cuePack(error): error.message
        case let .spokenCue(error): "spoken guide: " + error.message
        case let .bed(error): error.message
        case let .input(error): error.message
        case let .data(text),
             let .usage(text), let .noInput(text), let .cannotCreate(text), let .io(text), let .unavailable(text): text
        case let .interrupted(signal): signal == 15 ? "stopped by SIGTERM" : "interrupted by Ctrl-C (SIGINT)"
        case .stoppedEarly: "stopped early (q or Esc)"
        }
    }
}
