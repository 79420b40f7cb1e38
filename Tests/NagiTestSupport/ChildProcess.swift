import Foundation
import Glibc

/// A child process started with posix_spawn and reaped with waitpid, for tests that signal and time
/// their child: Foundation's Process can miss the exit of a child that outlives a signal race.
public final class ChildProcess {
    public let pid: pid_t
    public private(set) var exitStatus: Int32?
    /// Whether `wait` samples the child's memory into `peakResidentKilobytes` (a /proc read per poll).
    private let measuresPeakMemory: Bool
    /// The child's own peak resident memory in KiB (`VmHWM`), as last seen while `wait` polled it (0 unless
    /// the child was started with `measuresPeakMemory`).
    ///
    /// Not `ru_maxrss` from wait4: posix_spawn's child runs in the parent's memory until it execs, and Linux
    /// folds that memory's high-water mark into the child's `ru_maxrss`, so it would report the test runner.
    public private(set) var peakResidentKilobytes = 0

    /// Starts `executable` with `arguments` and exactly `environment`, in `workingDirectory` if given; stdin is
    /// /dev/null, stdout and stderr go to the given files (or /dev/null). The child starts with no signals blocked.
    public init(_ executable: String, _ arguments: [String], environment: [String: String], workingDirectory: String? = nil, standardOutputPath: String? = nil, standardErrorPath: String? = nil, measuresPeakMemory: Bool = false) throws {
        self.measuresPeakMemory = measuresPeakMemory
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }

        // Nothing else the test runner has open reaches the child: a write descriptor of a binary being copied
        // would make its exec fail with ETXTBSY, and a pipe's write end would hold back its reader's EOF.
        // glibc has both calls (2.34, 2.29), but they do not import; look them up.
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }
        if let workingDirectory {
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { throw POSIXError(.ENOSYS) }
            typealias ChangeFolder = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
            _ = unsafeBitCast(symbol, to: ChangeFolder.self)(&actions, workingDirectory)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, standardErrorPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        pid = child
    }

    /// Whether the child is still running (reaps it if it has exited).
    public var isRunning: Bool {
        if exitStatus != nil { return false }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result == 0 }
        // WIFEXITED / WEXITSTATUS / WTERMSIG by hand: the macros do not import.
        let termination = status & 0x7F
        exitStatus = termination == 0 ? (status >> 8) & 0xFF : 128 + termination
        return false
    }

    /// Waits up to `seconds` for the child to exit; true if it did.
    public func wait(seconds: Double) -> Bool {
        Poll.until(seconds: seconds) {
            if measuresPeakMemory {
                peakResidentKilobytes = max(peakResidentKilobytes, highWaterKilobytes() ?? 0)
            }
            return !isRunning
        }
    }

    /// `VmHWM` from /proc/PID/status, nil once the child has exited.
    private func highWaterKilobytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.dropFirst("VmHWM:".count).filter(\.isNumber))
    }

    public func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = wait(seconds: 5)
        }
    }
}

extension ChildProcess {
    /// Runs `executable` to its end (at most `seconds`) with a bare PATH and no output; its exit status, or −1
    /// when it could not start or did not finish.
    public static func status(of executable: String, _ arguments: [String], seconds: Double = 30) -> Int32 {
        guard let child = try? ChildProcess(executable, arguments, environment: ["PATH": "/usr/bin:/bin"]),
              child.wait(seconds: seconds)
        else { return -1 }
        return child.exitStatus ?? -1
    }
}
