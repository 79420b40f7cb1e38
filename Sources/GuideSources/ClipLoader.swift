import AudioFile
import Resampling

/// Reads one cue clip whole (it is at most 30 s) and brings it to the session rate.
enum ClipLoader {
    /// Frames read per `sf_readf_float` call.
    private static let blockFrames = 8_192
    /// A clip whose largest sample is under this once filtered (−80 dBFS) is taken as silent.
    static let silencePeak: Float = 1e-4

    /// The clip goes through the DC-blocking high-pass after resampling.
    /// - Throws: a fault for a file that cannot be opened, is not audio, has no frames, is too long, is silent
    ///   once filtered, has more than two channels, or fails to read or resample.
    static func load(path: String, sampleRate: Int) throws(RecordingFault<CueClipUse>) -> CueClip {
        let stream: AudioFileStream
        do { stream = try AudioFileStream(path: path) } catch { throw .file(error) }
        let channelCount = stream.channelCount
        guard channelCount <= 2 else { throw .tooManyChannels(path: path, channelCount: channelCount) }
        let limitFrames = CuePack.maximumClipSeconds * stream.sampleRate
        if let frames = stream.frameCount, frames > Int64(limitFrames) {
            throw .tooLong(path: path, limitSeconds: CuePack.maximumClipSeconds)
        }
        // Read in blocks and stop past the limit, so a file that hides its length cannot fill memory.
        var samples: [Float] = []
        var block = [Float](repeating: 0, count: blockFrames * channelCount)
        while true {
            let frames: Int
            do {
                frames = try block.withUnsafeMutableBufferPointer { buffer throws(AudioFileStreamError) in
                    try stream.read(into: buffer)
                }
            } catch { throw .file(error) }
            guard frames > 0 else { break }
            samples.append(contentsOf: block[0..<(frames * channelCount)])
            if samples.count > limitFrames * channelCount {
                throw .tooLong(path: path, limitSeconds: CuePack.maximumClipSeconds)
            }
        }
        guard !samples.isEmpty else { throw .noFrames(path: path) }
        var resampled: [Float]
        do {
            resampled = try Resampler.resample(samples, channelCount: channelCount, from: stream.sampleRate, to: sampleRate)
        } catch {
            throw .resamplingFailed(path: path, reason: error.message)
        }
        // Without its DC offset (which would step at every onset) and infrasound.
        var filter = DCBlockingFilter(sampleRate: sampleRate, channelCount: channelCount)
        resampled.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { filter.process(base, frameCount: buffer.count / channelCount) }
        }
        let peak = resampled.reduce(Float(0)) { max($0, abs($1)) }
        guard peak >= Self.silencePeak else { throw .silent(path: path) }
        return CueClip(samples: resampled, channelCount: channelCount, sampleRate: sampleRate, sourcePath: path)
    }
}
