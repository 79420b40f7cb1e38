import AudioFile

/// Where `render` writes and in which format: `-o`, `--format`, `--quality`, checked before anything is created.
struct OutputChoice {
    var path: String
    var format: AudioFileFormat
    /// 0...1 for libsndfile (1 best), from the user's 0...10.
    var quality: Double?

    init(path: String, format: AudioFileFormat, quality: Double?) {
        self.path = path
        self.format = format
        self.quality = quality
    }

    init(_ arguments: ParsedArguments, defaultStem: String) throws(CLIError) {
        let formatChoice: AudioFileFormat?
        do {
            formatChoice = try arguments.choice("--format").flatMap(AudioFileFormat.init(rawValue:))
            quality = try arguments.decimal("--quality", in: 0...10).map { $0 / 10 }
        } catch {
            throw .arguments(error)
        }
        if let given = arguments.value("--output") {
            guard !given.isEmpty else { throw .arguments(.invalidValue(option: "-o", value: given, expected: "a file path")) }
            path = given
            let fileExtension = given.split(separator: "/").last.flatMap { name in name.contains(".") ? name.split(separator: ".").last.map(String.init) : nil }
            format = formatChoice ?? fileExtension.flatMap(AudioFileFormat.init(fileExtension:)) ?? .wav
        } else {
            format = formatChoice ?? .wav
            path = "\(defaultStem).\(format.fileExtension)"
        }
    }

    /// The libsndfile spec, validated (impossible combinations exit 64 before anything is created).
    /// WAV carries every phase start as a cue point when libsndfile can hold them all (2400); a longer
    /// session gets none rather than a misleading subset. `frameCount` is checked against WAV's 4 GiB.
    func fileSpec(sampleRate: Int, channelCount: Int, bits: String?, tags: AudioTags, cueFrames: [Int64], frameCount: Int64) throws(CLIError) -> AudioFileSpec {
        if format.isLossy, let bits {
            throw .usage("--bits \(bits) applies to wav and flac; \(format.rawValue) is a lossy format with no bit depth")
        }
        if format == .wav, quality != nil {
            throw .usage("--quality applies to flac, ogg, opus and mp3; wav is uncompressed")
        }
        let encoding: SampleEncoding = bits.flatMap(SampleEncoding.init(rawValue:)) ?? .pcm16
        let spec = AudioFileSpec(sampleRate: sampleRate, channelCount: channelCount, format: format, encoding: encoding, quality: quality, tags: tags, cueFrames: format.supportsCuePoints && cueFrames.count <= AudioFileSpec.maximumCuePointCount ? cueFrames : [])
        do {
            try spec.validate()
        } catch let error as AudioFileError {
            throw .audioFile(error)
        } catch {
            throw .usage("\(error)")
        }
        if let limit = spec.maximumFrameCount, frameCount > limit {
            throw .usage("the session is too long for a \(format.rawValue) file (over 4 GiB); use flac, ogg, opus or mp3, or fewer channels or bits")
        }
        return spec
    }
}
