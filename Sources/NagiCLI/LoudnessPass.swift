import Breath
import CNagiSystem
import Loudness
import Synth

/// The first pass of a render with a loudness target: the whole session rendered straight into libebur128
/// (block by block, nothing kept), its integrated loudness and true peak read, and the one gain that takes it
/// to the target. The renderer is deterministic, so the second pass with that gain is the measured render,
/// scaled: `render` and `play` apply the same gain and stay equal frame for frame.
struct LoudnessPass {
    /// What the first pass found and the gain it chose.
    struct Outcome: Equatable {
        /// The calibrated render's integrated loudness, LUFS.
        var measuredLUFS: Double
        /// Its true peak, dBTP (libebur128, 4× oversampled).
        var truePeakDecibels: Double
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

    /// Renders `schedule` under `settings` (its own loudness gain ignored) into a meter and returns the gain to
    /// `targetLUFS`: the difference, held down so the true peak stays under the limiter's highest loudness
    /// ceiling (−1 dBTP less the meter's margin). Throws `.interrupted` on a stop signal.
    static func measure(schedule: Schedule, settings: RenderSettings, targetLUFS: Double) throws(CLIError) -> Outcome {
        var calibrated = settings
        calibrated.loudnessGainDecibels = 0
        let renderer = Renderer(schedule: schedule, settings: calibrated)
        let channelCount = settings.channelCount
        let meter: LoudnessMeter
        do {
            meter = try LoudnessMeter(channelCount: channelCount, sampleRate: schedule.sampleRate)
        } catch {
            throw .io(error.message)
        }
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockFrameCount * channelCount)
        defer { buffer.deallocate() }
        let totalFrames = renderer.totalFrameCount
        while renderer.nextFrame < totalFrames {
            let signal = nagi_stop_signal()
            if signal != 0 { throw .interrupted(signal: signal) }
            let frames = Int(min(Int64(blockFrameCount), totalFrames - renderer.nextFrame))
            renderer.render(into: buffer, frameCount: frames)
            do {
                try meter.add(UnsafeBufferPointer(rebasing: buffer[0..<(frames * channelCount)]))
            } catch {
                throw .io(error.message)
            }
        }
        let loudness: Double, truePeak: Double
        do {
            loudness = try meter.integratedLoudness()
            truePeak = try meter.truePeak()
        } catch {
            throw .io(error.message)
        }
        // A silent render (every voice off) has no loudness to move: leave it as it is.
        guard loudness.isFinite else {
            return Outcome(measuredLUFS: loudness, truePeakDecibels: truePeak, gainDecibels: 0, targetLUFS: targetLUFS)
        }
        let wanted = targetLUFS - loudness
        let allowed = truePeak.isFinite ? RenderPlan.highestLoudnessCeilingDecibels - truePeak : wanted
        return Outcome(measuredLUFS: loudness, truePeakDecibels: truePeak, gainDecibels: min(wanted, allowed), targetLUFS: targetLUFS)
    }
}
