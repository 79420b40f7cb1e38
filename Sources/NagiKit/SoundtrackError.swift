import AudioFile
import BedSource
import GuideSources
import Synth

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
    /// The soundscape's own voices can sum louder than the limiter can take down cleanly
    /// (`RenderPlan.largestLimitingDecibels` over its ceiling): the bound, the ceiling (dB) and the field to lower.
    case soundscapeTooLoud(title: String, boundDecibels: Double, ceilingDecibels: Double, field: String)
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
        case let .soundscapeTooLoud(title, bound, ceiling, field):
            "soundscape \"\(title)\": its voices can reach \(Self.decibelsText(bound)) dBFS at once, "
                + "\(Self.decibelsText(bound - ceiling, signed: false)) dB over the limiter's \(Self.decibelsText(ceiling)) dBTP ceiling "
                + "(at most \(Self.decibelsText(RenderPlan.largestLimitingDecibels, signed: false)) dB can be limited cleanly); lower \(field)"
        case .cancelled: "cancelled"
        }
    }

    /// `decibels` to one decimal, with its sign (+3.5, −1.2) unless `signed` is false.
    private static func decibelsText(_ decibels: Double, signed: Bool = true) -> String {
        let tenths = Int((decibels * 10).rounded())
        let digits = "\(abs(tenths) / 10).\(abs(tenths) % 10)"
        guard signed else { return digits }
        return (tenths < 0 ? "−" : "+") + digits
    }
}
