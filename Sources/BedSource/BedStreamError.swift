import AudioFile

/// Why a bed recording cannot be used: missing or unreadable (66), not audio, no frames or more than eight
/// channels (65), a read failing part way (74), libsoxr or libebur128 failing (70).
public typealias BedStreamError = RecordingFault<BedRecordingUse>
