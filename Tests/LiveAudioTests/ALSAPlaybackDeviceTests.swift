import NagiBase
import Foundation
import Glibc
@testable import LiveAudio
import NagiTestSupport
import Testing

/// The real ALSA device: streams captured with the `file` plugin over `null`, and failures to open.
///
/// Serialized: ALSA's error messages are kept in process-wide buffers that each open clears.
@Suite(.serialized)
struct ALSAPlaybackDeviceTests {
    static let sampleRate = 48_000
    static let frameCount: Int64 = 30_001

    init() {
        RuntimeFolder.ensure()
    }

    /// Plays the whole indexed source through `device` and returns the captured file's bytes.
    private func playAndCapture(_ device: ALSAPlaybackDevice, path: String) throws -> Data {
        let source = IndexedFrameSource(sampleRate: Self.sampleRate, totalFrameCount: Self.frameCount)
        let loop = PlaybackLoop(source: source, sink: device)
        let summary = try loop.run(control: { nil }, observer: { _ in })
        #expect(summary.endedBy == .finished)
        #expect(summary.underrunCount == 0)
        device.close()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func floatCaptureEqualsTheSourceBitForBit() throws {
        let directory = try TemporaryFolder()
        let path = directory.file("float.raw")
        let device = try ALSAPlaybackDevice(
            deviceName: "file:'\(path)',raw", sampleRate: Self.sampleRate, channelCount: 2, format: .float32,
            latencyMilliseconds: 100
        )
        #expect(device.format == .float32)
        #expect(device.deviceFormatName == "FLOAT_LE", "the file plugin takes float as it is")
        #expect(device.bufferFrameCount == 4_800, "100 ms at 48 kHz")

        let bytes = try playAndCapture(device, path: path)
        #expect(bytes.count == Int(Self.frameCount) * 2 * 4)
        let captured = bytes.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
        let expected = IndexedFrameSource(sampleRate: Self.sampleRate, totalFrameCount: Self.frameCount)
            .expectedSamples(0..<Self.frameCount)
        #expect(captured.map(\.bitPattern) == expected.map(\.bitPattern))
    }

    @Test func signed16CaptureIsTheSourceRoundedToTheNearestStep() throws {
        let directory = try TemporaryFolder()
        let path = directory.file("s16.raw")
        let device = try ALSAPlaybackDevice(
            deviceName: "file:'\(path)',raw", sampleRate: Self.sampleRate, channelCount: 2, format: .signed16,
            latencyMilliseconds: 200
        )
        #expect(device.deviceFormatName == "S16_LE")
        let bytes = try playAndCapture(device, path: path)
        expectSigned16(bytes)
    }

    @Test func signed24in32CaptureUsesS32WithTwentyFourBits() throws {
        let directory = try TemporaryFolder()
        let path = directory.file("s32.raw")
        let device = try ALSAPlaybackDevice(
            deviceName: "file:'\(path)',raw", sampleRate: Self.sampleRate, channelCount: 2, format: .signed24in32,
            latencyMilliseconds: 200
        )
        #expect(device.format == .signed24in32)
        #expect(device.deviceFormatName == "S32_LE", "the file plugin takes S32_LE, the first choice")
        let bytes = try playAndCapture(device, path: path)
        let words = integers(bytes, as: Int32.self)
        let expected = IndexedFrameSource(sampleRate: Self.sampleRate, totalFrameCount: Self.frameCount)
            .expectedSamples(0..<Self.frameCount).map { Double($0) * 8_388_607 }
        #expect(words.count == expected.count)
        #expect(words.allSatisfy { $0 & 0xFF == 0 })
        #expect(zip(words, expected).allSatisfy { abs(Double($0 >> 8) - $1) <= 0.5 })
    }

    @Test func floatFallsBackToSixteenBitsOnADeviceThatRefusesFloat() throws {
        let directory = try TemporaryFolder()
        let path = directory.file("fallback.raw")
        // A `linear` plugin takes integer formats only, like many sound cards.
        let configuration = """
            pcm.integeronly {
                type linear
                slave {
                    pcm { type file file "\(path)" format raw slave.pcm { type null } }
                    format S16_LE
                }
            }
            """
        let device = try ALSAPlaybackDevice(
            deviceName: "integeronly", sampleRate: Self.sampleRate, channelCount: 2, format: .float32,
            latencyMilliseconds: 200, configurationText: configuration
        )
        #expect(device.format == .signed16)
        #expect(device.deviceFormatName == "S16_LE")
        let bytes = try playAndCapture(device, path: path)
        expectSigned16(bytes)
    }

    @Test func closedDeviceRefusesWritesAndClosesOnlyOnce() throws {
        let directory = try TemporaryFolder()
        let device = try ALSAPlaybackDevice(
            deviceName: "file:'\(directory.file("closed.raw"))',raw", sampleRate: Self.sampleRate, channelCount: 1
        )
        device.close()
        device.close()
        let samples: [Float] = [0.1, 0.2]
        let result = samples.withUnsafeBufferPointer { device.write($0, frameCount: 2) }
        #expect(result == .failed(errno: EBADFD))
        #expect(!device.recover(from: EPIPE))
        #expect(device.delayFrames() == 0)
    }

    /// In a child process whose ALSA configuration defines no device (`EmptyALSAConfiguration`): "no sound card"
    /// made true by the test, not assumed of the machine (a desktop's `default` opens through its sound server).
    @Test func defaultDeviceWithoutASoundCardIsUnavailable() throws {
        let (result, captured) = try Self.probeOpen("default")
        #expect(result.hasPrefix("unavailable|cannot play on ALSA device 'default' because snd_pcm_open failed: No such file or directory"), "\(result)")
        // The device layer states the fault; the advice to render a file instead is the command line's (PlayTests).
        #expect(!result.contains("nagi render"))
        #expect(!result.contains("\n"))
        #expect(captured.isEmpty, "stderr got: \(captured)")
    }

    /// Opens `device` in a fresh child process (nothing opened before can have silenced ALSA or read its
    /// configuration already) with an ALSA configuration that defines no device; what the open threw
    /// ("category|message", or "opened") and what reached its stderr.
    static func probeOpen(_ device: String) throws -> (result: String, standardError: String) {
        let directory = try TemporaryFolder()
        let configuration = try EmptyALSAConfiguration.make()
        let resultPath = directory.file("result.txt")
        let capturePath = directory.file("stderr.txt")
        var environment = ProcessInfo.processInfo.environment
        environment[OpenProbe.deviceKey] = device
        environment[OpenProbe.resultKey] = resultPath
        environment[OpenProbe.stderrKey] = capturePath
        environment[EmptyALSAConfiguration.variable] = configuration.path
        let child = try ChildProcess("/proc/self/exe", ["--testing-library", "swift-testing", "--filter", "openProbeForAChildProcess"], environment: environment)
        #expect(child.wait(seconds: 120) && child.exitStatus == 0)
        let result = try String(contentsOfFile: resultPath, encoding: .utf8)
        let captured = try Data(contentsOf: URL(fileURLWithPath: capturePath))
        return (result, String(decoding: captured, as: UTF8.self))
    }

    @Test func unknownDeviceNameIsUnavailableAndNamed() {
        let error = openError("nosuchdevice")
        guard case let .deviceUnavailable(device, reason) = error else {
            Issue.record("expected deviceUnavailable, got \(String(describing: error))")
            return
        }
        #expect(device == "nosuchdevice")
        #expect(reason.contains("Unknown PCM nosuchdevice"), "ALSA's own first message says what is wrong")
        #expect(error?.message.contains("'nosuchdevice'") == true)
        #expect(error?.category == .unavailable)
    }

    /// In a fresh child process, so nothing opened before can have silenced ALSA already.
    @Test(arguments: ["default", "nosuchdevice"])
    func failedOpenPrintsNothingOnStandardError(device: String) throws {
        let (result, captured) = try Self.probeOpen(device)
        #expect(result.hasPrefix("unavailable|cannot play on ALSA device '\(device)'"), "\(result)")
        #expect(captured.isEmpty, "stderr got: \(captured)")
    }

    private func openError(_ deviceName: String) -> LiveAudioError? {
        do {
            _ = try ALSAPlaybackDevice(deviceName: deviceName, sampleRate: Self.sampleRate, channelCount: 2)
            return nil
        } catch {
            return error
        }
    }

    /// Checks a captured S16_LE stream against the source rounded to the nearest 16-bit step.
    private func expectSigned16(_ bytes: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        let captured = integers(bytes, as: Int16.self).map(Double.init)
        let expected = IndexedFrameSource(sampleRate: Self.sampleRate, totalFrameCount: Self.frameCount)
            .expectedSamples(0..<Self.frameCount).map { Double($0) * 32_767 }
        #expect(captured.count == expected.count, sourceLocation: sourceLocation)
        #expect(zip(captured, expected).allSatisfy { abs($0 - $1) <= 0.5 }, sourceLocation: sourceLocation)
    }

    private func integers<T: FixedWidthInteger>(_ bytes: Data, as type: T.Type) -> [T] {
        let size = MemoryLayout<T>.size
        return bytes.withUnsafeBytes { raw in
            (0..<(raw.count / size)).map { T(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * size, as: T.self)) }
        }
    }
}

/// Runs only inside the child process started by `failedOpenPrintsNothingOnStandardError`: opens the device named
/// in the environment with file descriptor 2 sent to a file, and writes what the open threw.
struct OpenProbe {
    static let deviceKey = "NAGI_LIVEAUDIO_PROBE_DEVICE"
    static let resultKey = "NAGI_LIVEAUDIO_PROBE_RESULT"
    static let stderrKey = "NAGI_LIVEAUDIO_PROBE_STDERR"

    @Test(.enabled(if: ProcessInfo.processInfo.environment[OpenProbe.deviceKey] != nil))
    func openProbeForAChildProcess() throws {
        let environment = ProcessInfo.processInfo.environment
        let device = try #require(environment[Self.deviceKey])
        let resultPath = try #require(environment[Self.resultKey])
        let capturePath = try #require(environment[Self.stderrKey])

        let captureDescriptor = open(capturePath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(captureDescriptor >= 0)
        let savedDescriptor = dup(STDERR_FILENO)
        dup2(captureDescriptor, STDERR_FILENO)
        let result: String
        do {
            _ = try ALSAPlaybackDevice(deviceName: device, sampleRate: 48_000, channelCount: 2)
            result = "opened"
        } catch {
            result = "\(error.category)|\(error.message)"
        }
        dup2(savedDescriptor, STDERR_FILENO)
        close(savedDescriptor)
        close(captureDescriptor)
        try result.write(toFile: resultPath, atomically: true, encoding: .utf8)
    }
}
