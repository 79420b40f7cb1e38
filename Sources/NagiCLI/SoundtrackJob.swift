import AudioFile
import Breath
import CNagiSystem
import FoundationEssentials
import Glibc
import Synth

/// Renders one session to one file: the pulled renderer feeding the libsndfile writer block by block.
/// `render` and `course export` both use it.
struct SoundtrackJob: Sendable {
    var schedule: Schedule
    /// Everything besides the schedule that decides the samples (the renderer's one way in).
    var settings: RenderSettings
    var outputPath: String
    var fileSpec: AudioFileSpec
    var overwrite: Bool
    /// An integrated loudness target in LUFS: a first pass measures the render and the second applies one gain.
    var loudnessTarget: Double? = nil

    /// What a finished job produced.
    struct Result: Sendable {
        var frameCount: Int64
        var sampleRate: Int
        var byteCount: Int64
        var wallSeconds: Double
        /// What the loudness pass measured and chose (nil without a target).
        var loudness: LoudnessPass.Outcome? = nil

        /// Audio length in seconds.
        var audioSeconds: Double { Double(frameCount) / Double(sampleRate) }
        /// How many times faster than real time the render ran.
        var speedRatio: Double { wallSeconds > 0 ? audioSeconds / wallSeconds : .infinity }
    }

    /// Frames rendered and written per block: large enough to amortise libsndfile calls, small enough to
    /// check for Ctrl-C often.
    static let blockFrameCount = 8192

    /// Renders and writes the whole soundtrack, reporting progress in [0, 1]; on a stop signal or any
    /// failure the temporary file is removed and nothing appears at the target.
    func run(progress: (Double) -> Void = { _ in }) throws(CLIError) -> Result {
        let start = Date()
        var settings = self.settings
        let bed = try settings.bed.map { mix throws(CLIError) in
            try BedPrefetcher(path: mix.path, sampleRate: schedule.sampleRate, channelCount: settings.channelCount)
        }
        let channelCount = settings.channelCount
        let writer: AudioFileWriter
        do {
            writer = try isStandardOutput ? AudioFileWriter(standardOutputFor: fileSpec) : AudioFileWriter(path: outputPath, spec: fileSpec, overwrite: overwrite)
        } catch let error as AudioFileError {
            throw .audioFile(error)
        } catch {
            throw .cannotCreate("cannot create '\(outputPath)': \(error)")
        }
        // The first pass of a loudness target: measured before anything is written, so a stop leaves nothing.
        var loudness: LoudnessPass.Outcome?
        if let loudnessTarget {
            do {
                let outcome = try LoudnessPass.measure(schedule: schedule, settings: settings, targetLUFS: loudnessTarget)
                settings.loudnessGainDecibels = outcome.gainDecibels
                loudness = outcome
            } catch {
                writer.discard()
                throw error
            }
        }
        let renderer = Renderer(schedule: schedule, settings: settings, bed: bed)
        let totalFrames = renderer.totalFrameCount
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: Self.blockFrameCount * channelCount)
        defer { buffer.deallocate() }
        var lastReported = -1.0
        while renderer.nextFrame < totalFrames {
            let signal = nagi_stop_signal()
            if signal != 0 {
                writer.discard()
                throw .interrupted(signal: signal)
            }
            let frames = Int(min(Int64(Self.blockFrameCount), totalFrames - renderer.nextFrame))
            renderer.render(into: buffer, frameCount: frames)
            do {
                try writer.write(UnsafeBufferPointer(rebasing: buffer[0..<(frames * channelCount)]))
            } catch {
                writer.discard()
                throw Self.cliError(error)
            }
            let fraction = Double(renderer.nextFrame) / Double(totalFrames)
            if fraction - lastReported >= 0.005 {
                progress(fraction)
                lastReported = fraction
            }
        }
        let signal = nagi_stop_signal()
        if signal != 0 {
            writer.discard()
            throw .interrupted(signal: signal)
        }
        if let failure = bed?.failure {
            writer.discard()
            throw .bed(failure)
        }
        do {
            try writer.commit()
        } catch {
            writer.discard()
            throw Self.cliError(error)
        }
        progress(1)
        let size = isStandardOutput ? 0 : FileSystem.size(of: outputPath)
        return Result(frameCount: totalFrames, sampleRate: schedule.sampleRate, byteCount: size, wallSeconds: Date().timeIntervalSince(start), loudness: loudness)
    }

    /// Whether the soundtrack streams into standard output (`-o -`).
    var isStandardOutput: Bool { outputPath == OutputChoice.standardOutputPath }

    static func cliError(_ error: any Error) -> CLIError {
        if let error = error as? AudioFileError { return .audioFile(error) }
        return .io("\(error)")
    }
}
