import CSndFile

/// The file-name extensions of the formats libsndfile reads without being told the format (lowercase, no dot):
/// what tells a clip from its sidecar files (`inhale.reapeaks`, `inhale.txt`, `inhale.wav~`).
public enum ReadableAudioExtensions {
    /// libsndfile's own major and simple format lists, and the names its formats also go by; raw and VOX are left
    /// out (headerless: libsndfile cannot open them unaided).
    public static let all: Set<String> = {
        var extensions: Set<String> = ["wav", "wave", "aif", "aiff", "aifc", "flac", "ogg", "oga", "opus", "mp3", "au", "snd", "caf", "w64", "rf64"]
        for (countCommand, formatCommand) in [(SFC_GET_FORMAT_MAJOR_COUNT, SFC_GET_FORMAT_MAJOR), (SFC_GET_SIMPLE_FORMAT_COUNT, SFC_GET_SIMPLE_FORMAT)] {
            var count: Int32 = 0
            guard sf_command(nil, Int32(countCommand), &count, Int32(MemoryLayout<Int32>.size)) == 0 else { continue }
            for index in 0..<max(0, count) {
                var info = SF_FORMAT_INFO()
                info.format = index
                guard sf_command(nil, Int32(formatCommand), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
                      let text = info.extension
                else { continue }
                extensions.insert(String(cString: text).lowercased())
            }
        }
        extensions.subtract(["raw", "vox"])
        return extensions
    }()
}
