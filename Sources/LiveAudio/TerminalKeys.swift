import Glibc

/// Single key presses from the terminal during live playback (`LiveKey`): space pauses or resumes, q or Esc stops,
/// `+`/`-` and the up and down arrows move the volume, n and b skip, enter ends an open hold.
///
/// When the file descriptor is a TTY it is switched to non-canonical, no-echo input whose reads return at once
/// (VMIN 0, VTIME 0), so `nextCommand()` never blocks. Signal keys stay on (ISIG): Ctrl-C still raises SIGINT.
/// The original settings come back with `restore()`, which deinit also calls. When it is not a TTY (a pipe,
/// /dev/null) nothing is changed and no key is ever read.
///
/// deinit does not run when a signal without a handler kills the process: install stop handlers (CNagiSystem)
/// so the playback loop returns and the terminal is restored.
public final class TerminalKeys {
    public let fileDescriptor: Int32
    /// The settings found at init, while they are replaced; nil when not a TTY or after `restore()`.
    private var savedSettings: termios?

    private static let escape: UInt8 = 0x1B

    /// Puts `fileDescriptor` (standard input by default) in raw, no-echo mode if it is a TTY.
    public init(fileDescriptor: Int32 = STDIN_FILENO) {
        self.fileDescriptor = fileDescriptor
        guard isatty(fileDescriptor) == 1 else { return }
        var original = termios()
        guard tcgetattr(fileDescriptor, &original) == 0 else { return }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 0
            controlCharacters[Int(VTIME)] = 0
        }
        guard tcsetattr(fileDescriptor, TCSANOW, &raw) == 0 else { return }
        savedSettings = original
    }

    deinit {
        restore()
    }

    /// True while keys are being read: the descriptor is a TTY and `restore()` has not been called.
    public var isReadingKeys: Bool { savedSettings != nil }

    /// The key that last asked to stop, as the listener knows it ("q" or "Esc"); nil before any did.
    public private(set) var stopKeyName: String?

    /// Puts the terminal settings back as they were. Safe to call more than once.
    public func restore() {
        guard var original = savedSettings else { return }
        _ = tcsetattr(fileDescriptor, TCSANOW, &original)
        savedSettings = nil
    }

    /// The command of the next pause or stop key pressed, or nil when none is waiting; other keys are read and
    /// dropped. Never blocks. (`play` reads `nextKey()`, which knows every key.)
    public func nextCommand() -> PlaybackCommand? {
        while let key = nextKey() {
            switch key {
            case .togglePause: return .togglePause
            case .stop: return .stop(reason: .user)
            default: continue
            }
        }
        return nil
    }

    /// The next key pressed, or nil when no key is waiting. Never blocks.
    ///
    /// Keys with no meaning are skipped, and so are the escape sequences of function keys and other arrows,
    /// which begin with Esc but arrive with their other bytes at once; the up and down arrows (CSI A / B, or
    /// SS3 A / B in application mode) are the volume.
    public func nextKey() -> LiveKey? {
        guard isReadingKeys else { return nil }
        while let byte = readByte() {
            switch byte {
            case UInt8(ascii: " "):
                return .togglePause
            case UInt8(ascii: "q"), UInt8(ascii: "Q"):
                stopKeyName = "q"
                return .stop
            case UInt8(ascii: "+"), UInt8(ascii: "="):
                return .volumeUp
            case UInt8(ascii: "-"), UInt8(ascii: "_"):
                return .volumeDown
            case UInt8(ascii: "n"), UInt8(ascii: "N"):
                return .nextStage
            case UInt8(ascii: "b"), UInt8(ascii: "B"):
                return .stageStart
            case 0x0A, 0x0D:
                return .endHold
            case Self.escape:
                guard let next = readByte() else {
                    stopKeyName = "Esc"
                    return .stop
                }
                if let key = escapeSequence(after: next) { return key }
            default:
                continue
            }
        }
        return nil
    }

    /// Consumes the rest of an escape sequence whose second byte was `introducer`; the up or down arrow's key,
    /// nil for any other.
    private func escapeSequence(after introducer: UInt8) -> LiveKey? {
        var final: UInt8?
        var hasParameters = false
        switch introducer {
        case UInt8(ascii: "["):
            // CSI: parameter bytes, then one final byte in 0x40...0x7E.
            while let byte = readByte() {
                if (0x40...0x7E).contains(byte) {
                    final = byte
                    break
                }
                hasParameters = true
            }
        case UInt8(ascii: "O"):
            // SS3 (F1–F4, arrows in application mode): one more byte.
            final = readByte()
        default:
            // Alt+key: the key itself was the second byte.
            break
        }
        // A modified arrow (CSI 1;5A) is not the plain arrow.
        guard !hasParameters else { return nil }
        switch final {
        case UInt8(ascii: "A"): return .volumeUp
        case UInt8(ascii: "B"): return .volumeDown
        default: return nil
        }
    }

    /// One waiting byte, or nil when none is waiting (VMIN 0 makes read return 0 at once).
    private func readByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(fileDescriptor, &byte, 1)
            if count == 1 { return byte }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }
}
