import AudioFile
import NagiBase

/// The one identity of a soundtrack written as a file, computed in one place: the key that tells its sound from
/// every other (a server's cache of prepared soundtracks, an export's up-to-date check), the title its tags carry
/// and the name its file is given. The command line, the server and a course's export all take their names and keys
/// from here, so one sound is never kept under two keys nor two sounds under one.
public struct SoundtrackIdentity: Sendable, Equatable {
    /// The format the file is written in.
    public let format: AudioFileFormat
    /// `soundKey(of:format:)`: what decides the samples of the file, as 16 hex digits.
    public let soundKey: String
    /// The title tag, as shown: the control and invisible characters `DisplayText` refuses left out.
    public let title: String
    /// The file name's stem: the name made safe inside its folder (`FileNames.safeStem`).
    public let fileStem: String

    /// The identity of `request`'s sound written as `format`, titled `title` and filed under `name` (a session's or
    /// a lesson's name).
    public init(request: SoundtrackRequest, format: AudioFileFormat, title: String, name: String) {
        self.format = format
        soundKey = Self.soundKey(of: request, format: format)
        self.title = DisplayText.visible(title)
        fileStem = Self.fileStem(naming: name)
    }

    /// The file name's stem for a soundtrack named `name`, before its format is known (a command line's default
    /// output): `FileNames.safeStem`.
    public static func fileStem(naming name: String) -> String {
        FileNames.safeStem(name)
    }

    /// The file's name: "4-7-8.flac".
    public var fileName: String {
        fileStem + "." + format.fileExtension
    }

    /// The key of a file of this sound as `file` describes it (encoding, tags, chapters): a written file's up-to-date
    /// check, where a changed tag must rewrite it though the samples are the same.
    public func fileKey(_ file: SoundtrackFileDescription) -> String {
        Fingerprint.of([soundKey, String(describing: file.spec)])
    }

    /// The fingerprint of everything that decides the samples of `request` written as `format` (the request as
    /// prepared for the format's encoder, `forEncoder(of:)`, whose equal values prepare equal samples) and of nagi's
    /// version: equal for equal requests whatever they are called, different when the sound differs (pattern,
    /// soundscape, seed, guide, bed, beat, loudness, a lossy encoder's headroom).
    public static func soundKey(of request: SoundtrackRequest, format: AudioFileFormat) -> String {
        // A request holds no dictionary or reference, so its description is the same in every process.
        Fingerprint.of([SoundtrackTags.encoder, String(describing: request.forEncoder(of: format))])
    }
}
