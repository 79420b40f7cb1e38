import AudioFile
import BedSource
import Breath
import GuideSources
import Synth

/// Every way preparing or writing a soundtrack can fail, as data: each case carries the library's own error
/// or the facts, and `message` says it in one line. Exit codes are the command line's business, not this
/// library's.
public enum SoundtrackError: Error, Sendable {
    /// A session, pattern, soundscape or course that cannot be made: not found, malformed, impossible to schedule.
    case breath(BreathError)
    /// A bed recording that cannot be used: missing, not audio, empty, unreadable part way, unmeasurable.
    case bed(BedStreamError)
    /// A cue pack that cannot be used.
    case cuePack(CuePackError)
    /// Guide words flite or libsoxr could not turn into a clip.
    case spokenCue(SpokenCueError)
    /// Guide words that cannot be spoken at all (`reason` says why), such as a phrase of control characters.
    case unspeakable(text: String, reason: String)
    /// The output could not be created or written (libsndfile or the file system).
    case output(AudioFileError)
    /// The output could not be created for a reason other than libsndfile's.
    case cannotCreate(path: String, reason: String)
    /// Writing failed part way for a reason other than libsndfile's.
    case writeFailed(reason: String)
    /// The soundscape's own voices need more limiting than `RenderPlan.largestLimitingDecibels` (measured over the
    /// session's start): how much (dB) and the field to lower.
    case soundscapeTooLoud(title: String, limitingDecibels: Double, field: String)
    /// Options that contradict each other or the session (a binaural beat in mono, a bed level with no bed): the
    /// line says which and what would be right, naming the options as the command line does.
    case invalidOptions(String)
    /// A text written beside the audio (a label track, a playlist) could not be written.
    case textFile(TextFileError)
    /// The session is longer than a file of `format` can hold (a WAV file ends at 4 GiB).
    case fileTooLong(format: AudioFileFormat)
    /// The cancellation token said stop; nothing was left at the target.
    case cancelled

    /// One line naming the fault.
    public var message: String {
        switch self {
        case let .breath(error): error.message
        case let .bed(error): error.message
        case let .cuePack(error): error.message
        case let .spokenCue(error): "spoken guide: " + error.message
        case let .unspeakable(text, reason): "spoken guide: \"\(text)\": \(reason)"
        case let .output(error): error.message
        case let .cannotCreate(path, reason): "cannot create '\(path)': \(reason)"
        case let .writeFailed(reason): reason
        case let .soundscapeTooLoud(title, limiting, field):
            "soundscape \"\(title)\": its voices need \(Self.decibelsText(limiting)) dB of limiting to stay under the true-peak ceiling "
                + "(at most \(Self.decibelsText(RenderPlan.largestLimitingDecibels)) dB sounds clean); lower \(field)"
        case let .invalidOptions(text): text
        case let .textFile(error): error.message
        case let .fileTooLong(format):
            "the session is too long for a \(format.rawValue) file (over 4 GiB); use flac, ogg, opus or mp3, or fewer channels or bits"
        case .cancelled: "cancelled"
        }
    }

    /// `decibels` (≥ 0) to one decimal.
    private static func decibelsText(_ decibels: Double) -> String {
        let tenths = Int((max(0, decibels) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
