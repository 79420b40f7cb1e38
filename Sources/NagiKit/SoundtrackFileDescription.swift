import AudioFile
import Breath
import Synth

/// What a file of a soundtrack is besides its samples: the format, its encoding and quality, the tags with the
/// chapters, and in a WAV file the chapters' starts as cue points, every frame on the file's own timeline (a
/// countdown moves them all). Made by `SoundtrackRequest.fileDescription`, which takes the sample rate and channels from the request:
/// they are stated once, in the request.
public struct SoundtrackFileDescription: Sendable, Equatable {
    /// libsndfile's whole description of the file.
    public let spec: AudioFileSpec
    /// Frames the file holds: the countdown, the session, the release, the ending and the closing silence.
    public let frameCount: Int64
    /// Why the chapters were left out (a session with more than a file holds), nil when they were written.
    public let chaptersNote: String?

    /// The format.
    public var format: AudioFileFormat { spec.format }
    /// The tags, chapters included.
    public var tags: AudioTags { spec.tags }
}

extension SoundtrackRequest {
    /// Where the countdown and the ending lie in this request's output, and how long it is.
    public var framing: SessionFraming {
        SessionFraming(schedule: schedule, settings: renderSettings)
    }

    /// Everything besides the schedule that decides the samples, before the bed is measured and the clips made.
    var renderSettings: RenderSettings {
        var settings = RenderSettings(
            soundscape: soundscape, channelCount: channelCount, seed: seed,
            cues: guide.cues, count: guide.count, cueVolumeDecibels: guide.cueVolumeDecibels)
        settings.beat = beat
        settings.encodingHeadroomDecibels = encodingHeadroomDecibels
        (settings.countdownSeconds, settings.endBell) = (guide.countdownSeconds, guide.endBell)
        return settings
    }

    /// The description of a `format` file of this soundtrack, checked before anything is rendered: `tags` as
    /// given, with the `chapters` marks (nil: stages when the session has them, else phases) and, in a WAV file,
    /// each phase start as a cue point, all moved by the countdown. `encoding` applies to WAV, FLAC and raw PCM;
    /// `quality` (0…1, 1 best) to FLAC, Ogg, Opus and MP3.
    /// - Throws: `.output(.unsupported)` for a file libsndfile cannot write (Opus at 44.1 kHz, float FLAC, tags
    ///   too long), `.fileTooLong` for a session longer than the format holds.
    public func fileDescription(
        format: AudioFileFormat, encoding: SampleEncoding = .pcm16, quality: Double? = nil, tags: AudioTags = AudioTags(),
        chapters marks: ChapterMarks? = nil
    ) throws(SoundtrackError) -> SoundtrackFileDescription {
        let framing = self.framing
        let leadIn = framing.leadInFrameCount
        var tags = tags
        var note: String?
        if format.supportsTags {
            (tags.chapters, note) = ChapterMarks.chapters(marks, for: schedule, leadInFrames: leadIn)
        } else {
            tags.chapters = []
        }
        // A WAV file's cue points are its chapters, each labelled with the chapter's title when the file is tagged
        // (`TagLibFile.cueLabels`): ffmpeg and the players built on it list every cue point as a chapter, so a cue
        // point at every phase start read as hundreds of untitled chapters (about 200 in a Wim Hof session).
        // `--chapters phases` puts one on every phase start again, titled; `--labels` marks every phase for an editor.
        let cueFrames = format.supportsCuePoints ? tags.chapters.map(\.startFrame) : []
        let spec = AudioFileSpec(
            sampleRate: schedule.sampleRate, channelCount: channelCount, format: format, encoding: encoding, quality: quality,
            tags: tags, cueFrames: cueFrames)
        do {
            try spec.validate()
        } catch let error as AudioFileError {
            throw .output(error)
        } catch {
            throw .output(.unsupported("\(error)"))
        }
        let frameCount = framing.totalFrameCount
        if let limit = spec.maximumFrameCount, frameCount > limit {
            throw .fileTooLong(format: format)
        }
        return SoundtrackFileDescription(
            spec: spec, frameCount: frameCount, chaptersNote: note)
    }
}

extension Soundtrack {
    /// The description of a `format` file of this soundtrack: `SoundtrackRequest.fileDescription` of its request.
    public func fileDescription(
        format: AudioFileFormat, encoding: SampleEncoding = .pcm16, quality: Double? = nil, tags: AudioTags = AudioTags(),
        chapters marks: ChapterMarks? = nil
    ) throws(SoundtrackError) -> SoundtrackFileDescription {
        try request.fileDescription(format: format, encoding: encoding, quality: quality, tags: tags, chapters: marks)
    }
}
