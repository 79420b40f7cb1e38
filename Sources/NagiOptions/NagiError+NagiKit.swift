import CNagiSystem
import NagiKit

extension NagiError {
    /// The engine's fault as the command line reports it: the same line and exit code the command line has
    /// always given for it (a cancellation is the stop signal that caused it).
    package init(_ error: SoundtrackError) {
        switch error {
        case let .bed(fault): self = .bed(fault)
        case let .cuePack(fault): self = .cuePack(fault)
        case let .spokenCue(fault): self = .spokenCue(fault)
        case .unspeakable: self = .data(error.message)
        case let .output(fault): self = .audioFile(fault)
        case .cannotCreate: self = .cannotCreate(error.message)
        case let .writeFailed(reason): self = .io(reason)
        case .soundscapeTooLoud: self = .data(error.message)
        case let .breath(fault): self = .breath(fault)
        case .invalidOptions, .fileTooLong: self = .usage(error.message)
        case let .textFile(fault): self = NagiError(fault)
        case .cancelled: self = .stopSignal
        }
    }

    /// The stop signal received (SIGINT when none was recorded), as an interruption.
    package static var stopSignal: NagiError {
        let signal = nagi_stop_signal()
        return .interrupted(signal: signal != 0 ? signal : 2)
    }

    /// A text output's fault as the command line reports it (73 or 74; 130/143 when a wait was stopped).
    package init(_ error: TextFileError) {
        switch error {
        case let .targetExists(path): self = .cannotCreate("'\(path)' already exists; use --force to replace it")
        case let .cannotCreate(text): self = .cannotCreate(text)
        case let .writeFailed(text): self = .io(text)
        case .cancelled: self = .stopSignal
        }
    }

    /// Runs `write` (a text output's creation or publication), its fault as the command line reports it.
    package static func reporting<Result>(_ write: () throws(TextFileError) -> Result) throws(NagiError) -> Result {
        do { return try write() } catch { throw NagiError(error) }
    }
}
