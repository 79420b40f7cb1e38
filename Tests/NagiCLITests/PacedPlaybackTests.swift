import Foundation
import Testing

/// A real paced device without hardware: PulseAudio with a null sink behind ALSA's pulse plugin.
/// The test starts its own daemon on a private socket and stops it afterwards.
final class PulseServer {
    let runtimeFolder: URL
    let process = Process()

    init?() {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") else { return nil }
        guard let folder = try? NagiProcess.temporaryFolder() else { return nil }
        runtimeFolder = folder
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pulseaudio")
        process.arguments = ["-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
                             "-L", "module-null-sink sink_name=nagi_null",
                             "-L", "module-native-protocol-unix socket=\(folder.path)/native auth-anonymous=1"]
        process.environment = ["HOME": folder.path, "XDG_RUNTIME_DIR": folder.path, "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: folder.path + "/native"), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard FileManager.default.fileExists(atPath: folder.path + "/native") else { return nil }
    }

    var environment: [String: String] { ["PULSE_SERVER": "unix:\(runtimeFolder.path)/native", "XDG_RUNTIME_DIR": runtimeFolder.path] }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}

@Suite("Paced playback on PulseAudio's null sink", .serialized)
struct PacedPlaybackTests {
    /// Starts nagi play in the background and returns the process and its stderr pipe.
    static func startPlay(_ arguments: [String], environment: [String: String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = NagiProcess.executableURL
        process.arguments = ["play"] + arguments
        var variables = ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path]
        variables.merge(environment) { $1 }
        process.environment = variables
        let errorPipe = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, errorPipe)
    }

    static func wait(_ process: Process, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return !process.isRunning
    }

    @Test("Ctrl-C fades out, drains and exits 130 with what was practised; SIGTERM exits 143", arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalStopsGracefully(signal: Int32, status: Int32) throws {
        let server = try #require(PulseServer(), "pulseaudio could not start; .ci/run installs it")
        let (process, errorPipe) = try Self.startPlay(["box", "--minutes", "5", "--device", "pulse", "--latency", "200"], environment: server.environment)
        // It plays in real time: after 1.5 s it must still be running.
        Thread.sleep(forTimeInterval: 1.5)
        #expect(process.isRunning)
        let sent = Date()
        kill(process.processIdentifier, signal)
        #expect(Self.wait(process, seconds: 5), "nagi did not stop after the signal")
        let stopSeconds = Date().timeIntervalSince(sent)
        // 300 ms of fade plus the 200 ms buffer draining, with room for a loaded machine.
        #expect(stopSeconds < 2.0)
        #expect(process.terminationStatus == status)
        let errorText = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(errorText.contains("practised"), "\(errorText)")
        #expect(!errorText.contains("ALSA lib"))
    }

    @Test("a short session plays in real time to the end and exits 0")
    func playsToTheEnd() throws {
        let server = try #require(PulseServer(), "pulseaudio could not start; .ci/run installs it")
        let started = Date()
        let (process, errorPipe) = try Self.startPlay(["1-1", "--cycles", "1", "--device", "pulse"], environment: server.environment)
        #expect(Self.wait(process, seconds: 30))
        let elapsed = Date().timeIntervalSince(started)
        #expect(process.terminationStatus == 0)
        // 2 s of breath plus the tail: paced, so not instant.
        #expect(elapsed >= 2.0)
        let errorText = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(errorText.contains("practised 1 breath"), "\(errorText)")
    }
}
