// Pulls ten seconds of a box-breathing soundtrack from its 30th second into one buffer per channel, as an
// audio callback would, and writes them as raw 32-bit float planes (left, then right) to the path given.
import Foundation
import NagiKit

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: SeekPlanar OUT.f32")
    exit(64)
}
do {
    let session = try BuiltinLibrary.session(named: "box").withLength(.cycles(3))
    let soundtrack = try Soundtrack.prepare(SoundtrackRequest(
        schedule: try Schedule(session: session, sampleRate: 48_000),
        soundscape: try BuiltinLibrary.soundscape(named: "horizon")))
    let renderer = try soundtrack.makeRenderer()
    renderer.seek(toFrame: 30 * 48_000)
    let frameCount = 10 * 48_000
    var left = [Float](repeating: 0, count: frameCount)
    var right = [Float](repeating: 0, count: frameCount)
    left.withUnsafeMutableBufferPointer { leftPlane in
        right.withUnsafeMutableBufferPointer { rightPlane in
            // 512 frames a call, as a device's period.
            var done = 0
            while done < frameCount {
                let frames = min(512, frameCount - done)
                renderer.render(planes: [UnsafeMutableBufferPointer(rebasing: leftPlane[done..<(done + frames)]),
                                         UnsafeMutableBufferPointer(rebasing: rightPlane[done..<(done + frames)])], frameCount: frames)
                done += frames
            }
        }
    }
    let bytes = (left + right).withUnsafeBytes { Array($0) }
    guard let file = fopen(arguments[1], "wb") else {
        print("error: cannot open \(arguments[1])")
        exit(73)
    }
    fwrite(bytes, 1, bytes.count, file)
    fclose(file)
    print("pulled \(frameCount) frames from frame \(30 * 48_000) into two planes")
} catch let error as SoundtrackError {
    print("error: \(error.message)")
    exit(1)
} catch {
    print("error: \(error)")
    exit(1)
}
