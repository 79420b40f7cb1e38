import AudioFile
import BedSource
import GuideSources

/// Every way preparing or writing a soundtrack can fail, as data: each case carries the library's own error
/// or the facts, and `message` says it in one line. Exit codes are the command line's business, not this
/// library's.
public enum SoundtrackError: Error, Sendable {
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
    /// libebur128 failed while measuring the soundtrack's loudness.
    case measurement(String)
    /// The cancellation token said stop; nothing was left at the target.
    case cancelled

    /// One line naming the fault.
    public var message: String {
        switch self {
        case let .bed(error): error.message
        case let .cuePack(error): error.message
        case let .spokenCue(error): "spoken guide: " + error.message
        case let .unspeakable(text, reason): "spoken guide: \"\(text)\": \(reason)"
        case let .output(error): error.message
        case let .cannotCreate(path, reason): "cannot create '\(path)': \(reason)"
        case let .writeFailed(reason): reason
        case let .measurement(reason): reason
        case .cancelled: "cancelled"
        }
    }
}
