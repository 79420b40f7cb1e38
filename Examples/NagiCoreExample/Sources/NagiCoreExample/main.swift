// Renders a breathing session with nagi's synthesis alone: a pattern written inline, a soundscape decoded from the
// JSON text on standard input, every frame pulled from Synth's Renderer 512 at a time as an audio callback would
// pull them, at 48 kHz in stereo. Prints the frame count and a checksum of the samples (FNV-1a, 64 bits, over each
// sample's 32 bits), which scripts/check-core.sh compares with `nagi render`'s.
//
// Usage: NagiCoreExample PATTERN CYCLES < SOUNDSCAPE.json    (e.g. NagiCoreExample 4-2-6 2 < rain.json)
import Breath
import NagiDocuments
import Synth
// The program's own C library, for `exit` (nagi's core needs none).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

let arguments = CommandLine.arguments
guard arguments.count == 3, let cycles = Int(arguments[2]), cycles > 0 else {
    print("usage: NagiCoreExample PATTERN CYCLES < SOUNDSCAPE.json")
    exit(64)
}
var text = ""
while let line = readLine(strippingNewline: false) { text += line }

let soundscape: Soundscape
let schedule: Schedule
do {
    soundscape = try Soundscape.decode(text: text, file: "standard input")
} catch {
    print("error: \(error.message)")
    exit(65)
}
do {
    let session = Session(pattern: try InlinePattern.parse(arguments[1]), length: .cycles(cycles))
    schedule = try Schedule(session: session, sampleRate: 48_000)
} catch {
    print("error: \(error)")
    exit(64)
}

let renderer = Renderer(schedule: schedule, settings: RenderSettings(soundscape: soundscape, channelCount: 2))
let blockFrames = 512
let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockFrames * renderer.channelCount)
defer { buffer.deallocate() }
var checksum: UInt64 = 0xcbf2_9ce4_8422_2325
var peak: Float = 0
while renderer.nextFrame < renderer.totalFrameCount {
    let frames = Int(min(Int64(blockFrames), renderer.totalFrameCount - renderer.nextFrame))
    renderer.render(into: buffer, frameCount: frames)
    for sample in buffer[0..<(frames * renderer.channelCount)] {
        checksum = (checksum ^ UInt64(sample.bitPattern)) &* 0x0000_0100_0000_01b3
        peak = max(peak, abs(sample))
    }
}
let hex = String(checksum, radix: 16)
print("\(renderer.totalFrameCount) frames of \(soundscape.title), peak \(peak), checksum \(String(repeating: "0", count: 16 - hex.count) + hex)")
