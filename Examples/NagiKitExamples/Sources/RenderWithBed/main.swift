// Renders two cycles of 4-7-8 over a bed, with the spoken guide, at -16 LUFS, to FLAC:
// the same samples as `nagi render 4-7-8 --cycles 2 --bed BED --cues voice --loudness -16 -o OUT.flac`.
import Foundation
import NagiKit

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: RenderWithBed BED OUT.flac")
    exit(64)
}
do {
    let session = try BuiltinLibrary.session(named: "4-7-8").withLength(.cycles(2))
    let request = SoundtrackRequest(
        schedule: try Schedule(session: session, sampleRate: 48_000),
        soundscape: try BuiltinLibrary.soundscape(named: "horizon"),
        guide: .init(cues: .voice),
        bed: .init(path: arguments[1]),
        loudnessTargetLUFS: -16)
    // The bed is opened and measured, the words spoken and the loudness pass run here, before any output.
    let soundtrack = try Soundtrack.prepare(request)
    let spec = AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .flac)
    let report = try soundtrack.write(to: .file(path: arguments[2], overwrite: true), spec: spec)
    if let loudness = soundtrack.loudness {
        print("measured \(loudness.measuredLUFS) LUFS, gain \(loudness.gainDecibels) dB, now \(loudness.reachedLUFS) LUFS")
    }
    print("wrote \(report.frameCount) frames to \(arguments[2])")
} catch let error as SoundtrackError {
    print("error: \(error.message)")
    exit(1)
} catch {
    print("error: \(error)")
    exit(1)
}
