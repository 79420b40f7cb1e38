import Breath
import CNagiSystem
import Glibc
import Loudness
import Synth

/// The first pass of a render with a loudness target: the whole session rendered straight into libebur128
/// (block by block, nothing kept), its integrated loudness and peak read, and the one gain that takes it to
/// the target. The renderer is deterministic, so the second pass with that gain is the measured render, scaled:
/// `render` and `play` apply the same gain and stay equal frame for frame.
///
/// libebur128's K-weighting costs about twice the synthesis itself, so the session is metered in two halves on
/// two threads (each with its own renderer; the second renders the first half unmetered to reach its start) and
/// the halves' gating blocks are pooled (`ebur128_loudness_global_multiple`): the same figure as one meter fed
/// everything, less the two or three 400 ms blocks straddling the seam. The result does not depend on timing.
struct LoudnessPass {
    /// What the first pass found and the gain it chose.
    struct Outcome: Equatable {
        /// The calibrated render's integrated loudness, LUFS.
        var measuredLUFS: Double
        /// Its sample peak, dBFS.
        var peakDecibels: Double
        /// The gain for the second pass, dB.
        var gainDecibels: Double
        /// The target asked for, LUFS.
        var targetLUFS: Double

        /// The loudness the second pass reaches, LUFS.
        var reachedLUFS: Double { measuredLUFS + gainDecibels }
        /// Whether the target was out of reach under the true-peak limit.
        var fallsShort: Bool { reachedLUFS < targetLUFS - 0.05 }

        /// The line said on standard error when the target is out of reach.
        func shortfallLine(naming subject: String) -> String {
            "\(subject): --loudness \(NumberText.fixed(targetLUFS, decimals: 1)) LUFS would push the true peak past -1 dBTP; "
                + "reached \(NumberText.fixed(reachedLUFS, decimals: 1)) LUFS (\(NumberText.fixed(gainDecibels, decimals: 1)) dB on the calibrated level)"
        }
    }

    /// Frames rendered and metered per block.
    static let blockFrameCount = 8192

    /// Renders `schedule` under `settings` (its own loudness gain ignored) into meters and returns the gain to
    /// `targetLUFS`: the difference, held down so the peak stays under the limiter's highest loudness ceiling
    /// (`RenderPlan.highestLoudnessCeilingDecibels`, −1 dBTP less a margin for the peaks between samples).
    /// Throws `.interrupted` on a stop signal.
    static func measure(schedule: Schedule, settings: RenderSettings, targetLUFS: Double) throws(CLIError) -> Outcome {
        var unscaled = settings
        unscaled.loudnessGainDecibels = 0
        let calibrated = unscaled
        let totalFrames = RenderPlan.totalFrameCount(schedule: schedule, soundscape: settings.soundscape)
        // Two halves split on a block boundary; a session shorter than a few blocks is metered whole.
        let blocks = Int64(blockFrameCount)
        let seam = totalFrames > 8 * blocks ? (totalFrames / 2) / blocks * blocks : totalFrames
        let spans = seam < totalFrames ? [0..<seam, seam..<totalFrames] : [0..<totalFrames]
        let outcomes = ParallelRunner.run(spans, jobs: spans.count) { span -> Swift.Result<Half, CLIError> in
            do throws(CLIError) {
                return .success(try meterSpan(span, schedule: schedule, settings: calibrated))
            } catch {
                return .failure(error)
            }
        }
        var halves: [Half] = []
        for outcome in outcomes {
            switch outcome {
            case let .success(half): halves.append(half)
            case let .failure(error): throw error
            }
        }
        let loudness: Double
        do {
            loudness = try LoudnessMeter.integratedLoudness(of: halves.map(\.meter))
        } catch {
            throw .io(error.message)
        }
        let peak = 20 * log10(Double(halves.map(\.peak).max() ?? 0))
        // A silent render (every voice off) has no loudness to move: it is left as it is.
        guard loudness.isFinite else {
            return Outcome(measuredLUFS: loudness, peakDecibels: peak, gainDecibels: 0, targetLUFS: targetLUFS)
        }
        let wanted = targetLUFS - loudness
        let allowed = peak.isFinite ? RenderPlan.highestLoudnessCeilingDecibels - peak : wanted
        return Outcome(measuredLUFS: loudness, peakDecibels: peak, gainDecibels: min(wanted, allowed), targetLUFS: targetLUFS)
    }

    /// One metered stretch of the render: its meter and its largest sample magnitude.
    private struct Half: @unchecked Sendable {
        var meter: LoudnessMeter
        var peak: Float
    }

    /// Renders from frame 0 to `span`'s end, metering the frames in `span`.
    private static func meterSpan(_ span: Range<Int64>, schedule: Schedule, settings: RenderSettings) throws(CLIError) -> Half {
        // Each renderer reads the bed from its own stream.
        let bed = try settings.bed.map { mix throws(CLIError) in
            try BedPrefetcher(path: mix.path, sampleRate: schedule.sampleRate, channelCount: settings.channelCount)
        }
        let renderer = Renderer(schedule: schedule, settings: settings, bed: bed)
        let channelCount = settings.channelCount
        let meter: LoudnessMeter
        do {
            meter = try LoudnessMeter(channelCount: channelCount, sampleRate: schedule.sampleRate, measuresTruePeak: false)
        } catch {
            throw .io(error.message)
        }
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockFrameCount * channelCount)
        defer { buffer.deallocate() }
        var peak: Float = 0
        while renderer.nextFrame < span.upperBound {
            let signal = nagi_stop_signal()
            if signal != 0 { throw .interrupted(signal: signal) }
            let first = renderer.nextFrame
            let frames = Int(min(Int64(blockFrameCount), span.upperBound - first))
            renderer.render(into: buffer, frameCount: frames)
            guard first >= span.lowerBound else { continue }
            let block = UnsafeBufferPointer(rebasing: buffer[0..<(frames * channelCount)])
            peak = max(peak, largestMagnitude(block))
            do {
                try meter.add(block)
            } catch {
                throw .io(error.message)
            }
        }
        return Half(meter: meter, peak: peak)
    }

    /// The largest magnitude in `samples`, comparing bit patterns as integers (the same order for non-negative
    /// floats), which vectorises where a float max reduction would not.
    private static func largestMagnitude(_ samples: UnsafeBufferPointer<Float>) -> Float {
        var largest: Int32 = 0
        for sample in samples {
            let bits = Int32(bitPattern: sample.bitPattern & 0x7FFF_FFFF)
            largest = bits > largest ? bits : largest
        }
        return Float(bitPattern: UInt32(bitPattern: largest))
    }
}
