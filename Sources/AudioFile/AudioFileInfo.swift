/// What libsndfile reads back from a file.
public struct AudioFileInfo: Sendable, Equatable {
    /// Frames as libsndfile reports them: exact for every file nagi writes (MP3 included, through LAME's gapless
    /// info header); `Int64.max` for a FLAC stream that never learnt its length (written into a pipe).
    public var frameCount: Int64
    /// Frames per second.
    public var sampleRate: Int
    public var channelCount: Int
    /// nil for a format nagi does not write.
    public var format: AudioFileFormat?
    public var tags: AudioTags
    /// Sample offsets of the cue points (WAV), in file order.
    public var cueFrames: [Int64]
}
