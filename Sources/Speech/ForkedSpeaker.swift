import CNagiSpeech
import Glibc

/// A child process speaking a share of a guide's phrases through flite (`nagi_flite_speak_forked`), and what it
/// sent back.
///
/// The child is a copy of this process at the fork, so it speaks with the same registered voice, the same pace
/// and the same seeding of `rand` as this process: the same samples. It is reaped by `collect()`, which every
/// speaker must call once.
struct ForkedSpeaker {
    /// One phrase's wave as flite gave it: 16-bit mono samples at `sampleRate` Hz.
    struct Wave {
        var sampleRate: Int
        var samples: [Int16]
    }

    private let descriptor: Int32
    /// The child's process id (until `collect()` reaps it).
    let child: pid_t

    /// Forks a child that speaks `texts` with `voice` (registered and set to its pace by the caller, who holds
    /// flite's lock); nil when no pipe or process could be had (the caller speaks them itself).
    init?(voice: UnsafeMutableRawPointer, texts: [String]) {
        let strings = texts.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        guard !strings.contains(where: { $0 == nil }) else { return nil }
        var child: pid_t = 0
        let descriptor = strings.map { UnsafePointer($0) }.withUnsafeBufferPointer { texts in
            nagi_flite_speak_forked(voice, texts.baseAddress, Int32(texts.count), &child)
        }
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.child = child
    }

    /// The waves the child sent, in the order of its texts, up to the first it could not speak or send (fewer
    /// than asked for when flite failed on one, or the child died); reaps the child.
    func collect() -> [Wave] {
        let bytes = readToEnd()
        close(descriptor)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        return Self.waves(in: bytes)
    }

    /// Everything the child writes, until it closes the pipe (exits or dies).
    private func readToEnd() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// The whole records in `bytes` (`CNagiSpeech.h`: four int32 values, then the samples), up to the first that
    /// is not a mono wave or is cut short.
    static func waves(in bytes: [UInt8]) -> [Wave] {
        var waves: [Wave] = []
        bytes.withUnsafeBytes { raw in
            var offset = 0
            let headerSize = 4 * MemoryLayout<Int32>.size
            while offset + headerSize <= raw.count {
                let field = { (index: Int) in Int(raw.loadUnaligned(fromByteOffset: offset + 4 * index, as: Int32.self)) }
                let (spoken, sampleRate, channelCount, sampleCount) = (field(0), field(1), field(2), field(3))
                let sampleBytes = sampleCount * MemoryLayout<Int16>.size
                guard spoken == 1, sampleRate > 0, channelCount == 1, sampleCount > 0,
                      offset + headerSize + sampleBytes <= raw.count else { return }
                offset += headerSize
                let samples = [Int16](unsafeUninitializedCapacity: sampleCount) { buffer, initialized in
                    UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + sampleBytes)]))
                    initialized = sampleCount
                }
                waves.append(Wave(sampleRate: sampleRate, samples: samples))
                offset += sampleBytes
            }
        }
        return waves
    }
}
