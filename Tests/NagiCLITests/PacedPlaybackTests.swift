import Foundation
import NagiTestSupport
import Testing

/// A real paced device without hardware: PulseAudio with a null sink behind ALSA's pulse plugin.
/// The test starts its own daemon on a private socket and stops it afterwards.
final class PulseServer {
    let runtimeFolder: URL
    let daemon: ChildProcess

    init?() {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio"),
              let folder = try? NagiProcess.temporaryFolder() else { return nil }
        runtimeFolder = folder
        let arguments = ["-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
                         "-L", "module-null-sink sink_name=nagi_null",
                         "-L", "module-native-protocol-unix socket=\(folder.path)/native auth-anonymous=1"]
        guard let daemon = try? ChildProcess("/usr/bin/pulseaudio", arguments, environment: ["HOME": folder.path, "XDG_RUNTIME_DIR": folder.path, "PATH": "/usr/bin:/bin"]) else { return nil }
        self.daemon = daemon
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: folder.path + "/native"), Date() < deadline, daemon.isRunning {
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard FileManager.default.fileExists(atPath: folder.path + "/native") else { return nil }
    }

    var environment: [String: String] { ["PULSE_SERVER": "unix:\(runtimeFolder.path)/native", "XDG_RUNTIME_DIR": runtimeFolder.path] }

    /// `environment` as assignments in front of a shell command (a tmux window's): without XDG_RUNTIME_DIR a
    /// client makes a runtime folder of its own in TMPDIR and links it from ~/.config/pulse.
    var shellAssignments: String { "PULSE_SERVER='unix:\(runtimeFolder.path)/native' XDG_RUNTIME_DIR='\(runtimeFolder.path)'" }

    deinit {
        daemon.signal(SIGTERM)
        _ = daemon.wait(seconds: 5)
    }
}

@Suite("Paced playback on PulseAudio's null sink", .serialized)
struct PacedPlaybackTests {
    /// Starts nagi play in the background; its stderr goes to a file in `folder`.
    static func startPlay(_ arguments: [String], environment: [String: String], folder: URL) throws -> ChildProcess {
        var variables = ["PATH": "/usr/bin:/bin", "HOME": folder.path]
        variables.merge(environment) { $1 }
        return try ChildProcess(NagiProcess.executableURL.path, ["play"] + arguments, environment: variables, standardOutputPath: folder.appendingPathComponent("stdout.txt").path, standardErrorPath: folder.appendingPathComponent("stderr.txt").path)
    }

    static func standardOutput(in folder: URL) -> String {
        (try? String(contentsOf: folder.appendingPathComponent("stdout.txt"), encoding: .utf8)) ?? ""
    }

    static func standardError(in folder: URL) -> String {
        (try? String(contentsOf: folder.appendingPathComponent("stderr.txt"), encoding: .utf8)) ?? ""
    }

    @Test("Ctrl-C fades out, drains and exits 130 with what was practised; SIGTERM exits 143", arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalStopsGracefully(signal: Int32, status: Int32) throws {
        let server = try #require(PulseServer(), "pulseaudio could not start; .ci/run installs it")
        let folder = try NagiProcess.temporaryFolder()
        let started = Date()
        let process = try Self.startPlay(["2-2", "--minutes", "5", "--device", "pulse", "--latency", "200"], environment: server.environment, folder: folder)
        // Without a terminal, one line per phase change follows what is heard: wait for the first exhale.
        let deadline = Date().addingTimeInterval(15)
        while !Self.standardOutput(in: folder).contains("exhale"), Date() < deadline, process.isRunning {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(Self.standardOutput(in: folder).contains("0:02  exhale"), "\(Self.standardOutput(in: folder))")
        // It plays in real time: the exhale is heard 2 s in, not at once.
        #expect(Date().timeIntervalSince(started) >= 2)
        #expect(process.isRunning, "\(Self.standardError(in: folder))")
        let sent = Date()
        process.signal(signal)
        #expect(process.wait(seconds: 5), "nagi did not stop after the signal")
        let stopSeconds = Date().timeIntervalSince(sent)
        // 300 ms of fade plus the 200 ms buffer draining, with room for a loaded machine.
        #expect(stopSeconds < 2.0)
        #expect(process.exitStatus == status)
        let errorText = Self.standardError(in: folder)
        #expect(errorText.contains("practised"), "\(errorText)")
        #expect(errorText.contains("practised 0 breaths in 0:02") || errorText.contains("practised 0 breaths in 0:03"), "\(errorText)")
        #expect(!errorText.contains("ALSA lib"))
    }

    @Test("a short session plays in real time to the end and exits 0")
    func playsToTheEnd() throws {
        let server = try #require(PulseServer(), "pulseaudio could not start; .ci/run installs it")
        let folder = try NagiProcess.temporaryFolder()
        let started = Date()
        let process = try Self.startPlay(["1-1", "--cycles", "1", "--device", "pulse"], environment: server.environment, folder: folder)
        #expect(process.wait(seconds: 30))
        let elapsed = Date().timeIntervalSince(started)
        #expect(process.exitStatus == 0, "\(Self.standardError(in: folder))")
        // 2 s of breath plus the tail: paced, so not instant.
        #expect(elapsed >= 2.0)
        #expect(Self.standardError(in: folder).contains("practised 1 breath"), "\(Self.standardError(in: folder))")
    }
}
