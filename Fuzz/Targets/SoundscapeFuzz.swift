import Breath
import NagiBase
import NagiDocuments
import NagiMath
import Synth

/// libFuzzer target: soundscape documents, decoded and then played.
///
/// Built apart from the other targets: `scripts/fuzz.sh` compiles NagiMath, Breath, Synth and NagiDocuments as
/// modules first, then this file alone (it shares no Support file).
///
/// Invariants: errors are clean ContentErrors for the file (exit 65, a message); a decoded soundscape
/// renders a short session (three phases, at a rate and channel count picked by the input) to samples that
/// are all finite and within the soundscape's limiter ceiling, which is at most −1 dBFS, whatever its gains,
/// frequencies and depths.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSoundscape(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let soundscape: Soundscape
    do {
        soundscape = try Soundscape.decode(JSONParser.parse(bytes, file: "fuzz.json"), file: "fuzz.json")
    } catch {
        guard error.file == "fuzz.json" else {
            fatalError("invariant failed: the error names another file: \(error)")
        }
        check(!error.message.isEmpty && error.category == .badData, "unclean error \(error)")
        return 0
    }
    // The input's length picks the rate and channels, cheaply and repeatably.
    let sampleRate = [8_000, 22_050, 48_000][size % 3]
    let channelCount = 1 + size % 2
    let schedule: Schedule
    do {
        let pattern = try InlinePattern.parse("0.7-0.3-0.5")
        schedule = try Schedule(session: Session(pattern: pattern, length: .cycles(1)), sampleRate: sampleRate)
    } catch {
        fatalError("invariant failed: the fixed pattern does not schedule: \(error)")
    }
    let renderer = Renderer(schedule: schedule, soundscape: soundscape, channelCount: channelCount, cuesEnabled: true, seed: UInt64(size))
    // At most 3 s: the session, its release and silence can be long, and coverage comes from the first frames.
    let frameLimit = min(renderer.totalFrameCount, Int64(3 * sampleRate))
    let ceiling = Float(pow(10, soundscape.limiter.ceilingDecibels / 20)) * 1.000_01
    let blockFrames = 1_024
    var buffer = [Float](repeating: 0, count: blockFrames * channelCount)
    var done: Int64 = 0
    while done < frameLimit {
        let frames = Int(min(Int64(blockFrames), frameLimit - done))
        buffer.withUnsafeMutableBufferPointer { renderer.render(into: $0, frameCount: frames) }
        for index in 0..<(frames * channelCount) {
            let sample = buffer[index]
            check(sample.isFinite, "sample \(sample) at frame \(done + Int64(index / channelCount))")
            check(abs(sample) <= ceiling, "sample \(sample) above the ceiling \(soundscape.limiter.ceilingDecibels) dBFS at frame \(done + Int64(index / channelCount))")
        }
        done += Int64(frames)
    }
    return 0
}

/// Stops with `message` when an invariant fails, so libFuzzer keeps the input (`fatalError` keeps it under -O).
private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant failed: \(message())") }
}
