import AudioFile

/// A recording laid under the session as its bed: at most eight channels, any length.
public enum BedRecordingUse: RecordingUse {
    public static let subject = "bed"
    public static let channelRule = " (at most 8)"
}
