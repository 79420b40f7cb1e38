import NagiKit
import NagiOptions

/// A command's text output (labels, a cue sheet) prepared before the audio it goes with and published after it:
/// a file made ready beside its target (`PendingTextFile`), or text for the run's own standard output (`-`), which
/// is the process's for `nagi` and a host's sink for a run in process.
enum PendingOutputText {
    case file(PendingTextFile)
    case standardOutput(String)

    /// Prepares `text` for `path` (`-`: standard output).
    /// - Throws: as `PendingTextFile.init`, as the command line reports it.
    init(path: String, text: String, overwrite: Bool) throws(NagiError) {
        if path == OutputChoice.standardOutputPath {
            self = .standardOutput(text)
            return
        }
        self = .file(try NagiError.reporting { () throws(TextFileError) in try PendingTextFile(path: path, text: text, overwrite: overwrite) })
    }

    /// Puts the text at its target. A named pipe's reader is waited for until `stopsWaiting` says to stop.
    /// - Throws: as `PendingTextFile.publish`; a failed write to standard output as the run's end reports one
    ///   (74, or the quiet 141 when its reader has gone).
    func publish(stopsWaiting: () -> Bool) throws(NagiError) {
        switch self {
        case let .file(file):
            try NagiError.reporting { () throws(TextFileError) in try file.publish(stopsWaiting: stopsWaiting) }
        case let .standardOutput(text):
            Console.out(text)
            if let fault = Console.takeStandardOutputFault() { throw fault }
        }
    }
}
