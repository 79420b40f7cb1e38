/// How samples are stored in a lossless file (WAV, FLAC). Lossy formats ignore it.
public enum SampleEncoding: String, CaseIterable, Sendable {
    case pcm16 = "16"
    case pcm24 = "24"
    case float

    /// Bytes one sample takes in a WAV file.
    public var bytesPerSample: Int {
        switch self {
        case .pcm16: return 2
        case .pcm24: return 3
        case .float: return 4
        }
    }
}
