import BedSource
import Breath
import Loudness
import Synth

/// `--bed FILE` and `--bed-level DB`: a user's recording under the session, and where it sits. Read and
/// checked here; `mix` opens and measures the recording before anything is written.
struct BedOptions: Equatable {
    static let group = OptionGroup(
        title: "Bed",
        options: [
            OptionSpec(names: ["--bed"], valueName: "FILE", help: "A recording to lay under the whole session (WAV, FLAC, Ogg, Opus, MP3...; 1 to 8 channels): streamed, resampled, looped with a crossfade when shorter than the session, faded with it, quieter as it goes on, and ducked under a spoken guide. It replaces a bed named by the soundscape or the lesson.", completion: .file),
            OptionSpec(names: ["--bed-level"], valueName: "DB", help: "The bed's loudness in LU against the session's -20 LUFS, from -40 to 0 (default \(NumberText.fixed(BedMix.defaultLevelDecibels, decimals: 0))). The bed is measured first (EBU R128), so a quiet and a loud recording sit at the same place."),
        ]
    )

    /// The recording given on the command line, if any.
    var path: String?
    /// The level given on the command line, if any, LU against −20 LUFS.
    var levelDecibels: Double?
    /// Excerpts of a recording measured for its loudness, spread over the part the session plays.
    static let measuredExcerptCount = 16
    /// Each excerpt's length, seconds: 40 s measured in all (short excerpts, many of them: a recording whose
    /// level changes is sampled finely; each still holds 22 of libebur128's 400 ms gating blocks).
    static let measuredExcerptSeconds = 2.5

    init(path: String? = nil, levelDecibels: Double? = nil) {
        self.path = path
        self.levelDecibels = levelDecibels
    }

    init(_ arguments: ParsedArguments) throws(CLIError) {
        do {
            levelDecibels = try arguments.decimal("--bed-level", in: BedMix.levelRange)
        } catch {
            throw .arguments(error)
        }
        path = arguments.value("--bed")
        if let path, path.isEmpty {
            throw .arguments(.invalidValue(option: "--bed", value: path, expected: "the path of an audio file"))
        }
    }

    /// The bed that applies, opened, checked and measured over the part of it `schedule` plays: `--bed` over the
    /// lesson's over the soundscape's, and the level likewise. nil when none names a bed.
    /// - Throws: `.usage` for a level with no bed; `.bed` for a recording that cannot be used (66, 65, 74).
    func mix(soundscape: Soundscape, lesson: Course.Lesson? = nil, schedule: Schedule, channelCount: Int) throws(CLIError) -> BedMix? {
        guard let chosenPath = path ?? lesson?.bed ?? soundscape.bed else {
            if levelDecibels != nil {
                throw .usage("--bed-level sets the level of a bed, but there is none; add --bed FILE")
            }
            return nil
        }
        let level = levelDecibels ?? lesson?.bedLevelDecibels ?? soundscape.bedLevelDecibels ?? BedMix.defaultLevelDecibels
        let heardSeconds = Double(RenderPlan.totalFrameCount(schedule: schedule, soundscape: soundscape)) / Double(schedule.sampleRate)
        let loudness = try Self.loudness(of: chosenPath, heardSeconds: heardSeconds, sampleRate: schedule.sampleRate, channelCount: channelCount)
        return BedMix(path: chosenPath, gainDecibels: BedMix.gainDecibels(loudness: loudness, levelDecibels: level))
    }

    /// The recording's integrated loudness as a session of `heardSeconds` plays it (its first `heardSeconds`,
    /// or all of it when shorter), in the render's channels, LUFS.
    ///
    /// What is heard is measured in `measuredExcerptCount` excerpts spread evenly over it, their gating blocks
    /// pooled (`ebur128_loudness_global_multiple`), so a recording that opens quietly is judged by all of it and
    /// an hour-long one costs no more than a short one; a part of 40 s or less, or a file that does not say its
    /// length, is measured from its start. Measured at the recording's own rate (loudness does not depend on
    /// it, so no resampling is spent on it) and on two threads. The first open checks the file is a usable bed
    /// at the render's rate.
    static func loudness(of path: String, heardSeconds: Double, sampleRate: Int, channelCount: Int) throws(CLIError) -> Double {
        do throws(BedStreamError) {
            let decoder = try BedDecoder(path: path, channelCount: channelCount)
            _ = try BedStream(source: decoder, sampleRate: sampleRate)
            let spans = measuredSpans(
                heardFrames: Int64(heardSeconds * Double(decoder.sampleRate)), recordingFrames: decoder.frameCount,
                excerptFrames: Int64(measuredExcerptSeconds * Double(decoder.sampleRate)))
            // Half the excerpts to each of two threads, each reading its half through one decoder.
            let half = (spans.count + 1) / 2
            let groups = [Array(spans[..<half]), Array(spans[half...])].filter { !$0.isEmpty }
            let measured = ParallelRunner.run(groups, jobs: groups.count) { group -> Result<MeasuredSpans, BedStreamError> in
                do throws(BedStreamError) {
                    let reader = try BedDecoder(path: path, channelCount: channelCount)
                    var meters: [LoudnessMeter] = []
                    for span in group {
                        // A fresh decoder already stands at frame 0 (a file that hides its length may not seek).
                        if span.lowerBound > 0 { try reader.seek(toFrame: span.lowerBound) }
                        meters.append(try BedLoudness.meter(reading: reader, maximumFrames: span.count))
                    }
                    return .success(MeasuredSpans(meters: meters))
                } catch {
                    return .failure(error)
                }
            }
            var pooled: [LoudnessMeter] = []
            for result in measured { pooled += try result.get().meters }
            do { return try LoudnessMeter.integratedLoudness(of: pooled) } catch {
                throw .measurementFailed(path: path, reason: error.message)
            }
        } catch {
            throw .bed(error)
        }
    }

    /// The stretches of a recording measured for its loudness, in source frames: `measuredExcerptCount`
    /// excerpts of `excerptFrames`, the first at frame 0 and the last ending where the heard part ends; the
    /// whole heard part when it is no longer than all the excerpts together, or its opening that long when the
    /// recording's length is unknown (`recordingFrames` nil; reads stop at its end).
    static func measuredSpans(heardFrames: Int64, recordingFrames: Int64?, excerptFrames: Int64) -> [Range<Int64>] {
        let count = Int64(measuredExcerptCount)
        let heard = min(heardFrames, recordingFrames ?? heardFrames)
        guard recordingFrames != nil, heard > count * excerptFrames else {
            return [0..<min(heard, count * excerptFrames)]
        }
        return (0..<count).map { index in
            let start = index * (heard - excerptFrames) / (count - 1)
            return start..<(start + excerptFrames)
        }
    }

    /// A thread's measured excerpts of a bed, one meter each, handed back (the meters are not used there again).
    private struct MeasuredSpans: @unchecked Sendable {
        var meters: [LoudnessMeter]
    }
}
