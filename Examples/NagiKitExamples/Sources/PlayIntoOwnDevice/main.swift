// Plays a live session through NagiLive (over NagiKit) into a device of the app's own: a `PCMSink` that writes the frames
// it is given to a file as 32-bit floats (a real app would hand them to its audio system). The listener's keys
// are the app's to send; here the session skips on one stage after its first second, as `n` does in `nagi play`,
// and the outcome says what was practised.
import Foundation
import NagiKit
import NagiLive

/// A device that takes every frame at once and keeps it in a file.
final class FileDevice: PCMSink {
    let deviceName = "file device"
    let channelCount: Int
    let sampleRate: Int
    private let file: UnsafeMutablePointer<FILE>

    init(path: String, channelCount: Int, sampleRate: Int) throws {
        guard let file = fopen(path, "wb") else { throw CocoaError(.fileWriteNoPermission) }
        self.file = file
        self.channelCount = channelCount
        self.sampleRate = sampleRate
    }

    deinit { fclose(file) }

    func write(_ interleaved: UnsafeBufferPointer<Float>, frameCount: Int) -> PCMWriteResult {
        fwrite(interleaved.baseAddress, MemoryLayout<Float>.size, frameCount * channelCount, file)
        return .written(frameCount)
    }

    func recover(from errno: Int32) -> Bool { true }
    func delayFrames() -> Int64 { 0 }
    func drain() { fflush(file) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, arguments[2] == "through" || arguments[2] == "skip" else {
    print("usage: PlayIntoOwnDevice OUT.f32 through|skip")
    exit(64)
}
do {
    let session = try BuiltinLibrary.session(named: "wim-hof").withLength(.cycles(2))
    let soundtrack = try Soundtrack.prepare(SoundtrackRequest(
        schedule: try Schedule(session: session, sampleRate: 48_000), soundscape: try BuiltinLibrary.soundscape(named: "horizon")))
    let device = try FileDevice(path: arguments[1], channelCount: soundtrack.channelCount, sampleRate: soundtrack.sampleRate)
    let live = try LiveSession(soundtrack: soundtrack, sink: device)
    var sentSkip = arguments[2] == "through"
    var heard: Int64 = 0
    let outcome = try live.run(commands: {
        guard !sentSkip, heard >= 48_000 else { return nil }
        sentSkip = true
        return .nextStage
    }, events: { event in
        if case let .progress(progress, _, _) = event { heard = progress.heardFrame }
    })
    print("played \(outcome.finished ? "to the end" : "in part"): \(outcome.heardFrame) frames heard, \(outcome.skipCount) skip(s), \(outcome.retentions.count) retention(s)")
} catch let error as SoundtrackError {
    print("error: \(error.message)")
    exit(1)
} catch {
    print("error: \(error)")
    exit(1)
}
