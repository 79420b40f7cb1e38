import Foundation
import Glibc

@testable import AudioFile

/// A fresh folder under the system's temporary folder, removed with everything in it when released.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/nagi-audiofile-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Names in the folder, hidden ones included, sorted.
    var contents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? []
    }
}

/// A small tmpfs mounted over a temporary folder, to fill a disk for real. Needs root (tests run as root).
final class TmpfsMount {
    let folder: TemporaryFolder
    var path: String { folder.path }

    /// Whether this machine lets the tests mount a tmpfs, probed once.
    static let isAvailable: Bool = {
        guard let probe = try? TmpfsMount(size: "64k") else { return false }
        _ = probe
        return true
    }()

    init(size: String) throws {
        folder = try TemporaryFolder()
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path]) == 0 else {
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    deinit {
        _ = Self.run("/bin/umount", [folder.path])
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Fills the file system with a file named "filler" until it refuses more, then gives `bytes` back.
    func fill(leaving bytes: Int = 0) {
        let filler = folder.file("filler")
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        // tmpfs may take a last partial page.
        while Glibc.write(descriptor, block, 1) > 0 {}
        let size = lseek(descriptor, 0, SEEK_END)
        ftruncate(descriptor, max(0, size - off_t(bytes)))
    }
}

/// Test signals, deterministic.
enum TestSignal {
    /// A sine on every channel (each channel a little higher), interleaved, at `amplitude`.
    static func sine(frames: Int, channelCount: Int, sampleRate: Int, amplitude: Float = 0.5) -> [Float] {
        var samples = [Float](repeating: 0, count: frames * channelCount)
        for frame in 0..<frames {
            for channel in 0..<channelCount {
                let frequency = 440.0 * (1 + 0.25 * Double(channel))
                let phase = 2 * Double.pi * frequency * Double(frame) / Double(sampleRate)
                samples[frame * channelCount + channel] = amplitude * Float(sin(phase))
            }
        }
        return samples
    }

    /// A sine with white noise added, which lossy encoders cannot squeeze much.
    static func noisySine(frames: Int, channelCount: Int, sampleRate: Int, seed: UInt32 = 1) -> [Float] {
        var samples = sine(frames: frames, channelCount: channelCount, sampleRate: sampleRate, amplitude: 0.4)
        var state = seed
        for index in samples.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            samples[index] += (Float(state >> 8) / 16_777_216 - 0.5) * 0.4
        }
        return samples
    }

    static func rms(_ samples: [Float]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }
}

extension AudioFileWriter {
    /// Writes an array in blocks of `blockFrames`, as a render loop would.
    func write(_ samples: [Float], blockFrames: Int = 4096) throws {
        let blockSamples = blockFrames * spec.channelCount
        try samples.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(start + blockSamples, all.count)
                try write(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }
}

/// The file type bits of `path` (not following a final symbolic link), or nil when it does not exist.
func fileType(_ path: String) -> mode_t? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return status.st_mode & S_IFMT
}

func fileContents(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}
