import AudioFile

/// A recording read as a cue pack's clip: mono or stereo, at most `CuePack.maximumClipSeconds` long.
public enum CueClipUse: RecordingUse {
    public static let subject = "cue pack"
    public static let channelRule = "; a cue clip is mono or stereo"
}
