/// The exit codes nagi documents (sysexits where one fits), in one table for `--help` and the manual.
package enum ExitCode {
    /// Each code with what it means.
    package static let all: [(code: String, meaning: String)] = [
        ("0", "done"),
        ("1", "play or course next stopped early by the listener (q or Esc)"),
        ("64", "bad arguments, including a malformed inline pattern or option value"),
        ("65", "bad content in a JSON file (the message names the file and the JSON path)"),
        ("66", "a path nagi reads that is missing, a folder, a pipe, socket or device, or not readable (one rule for every file nagi reads: patterns, sessions, courses, soundscapes, cue clips, beds, covers, RR records, progress records; a pipe is never waited for), or a preset that does not exist"),
        ("69", "audio device unavailable"),
        ("73", "cannot create the output"),
        ("74", "I/O error: a read or write that failed part way, standard output included (a full disk)"),
        ("130", "interrupted (Ctrl-C, SIGINT)"),
        ("141", "standard output closed early by its reader (render -o - | head)"),
        ("143", "stopped (SIGTERM)"),
    ]

    /// One sentence: "Exit codes: 0 done, 1 …, 143 stopped (SIGTERM)."
    package static var sentence: String {
        "Exit codes: " + all.map { "\($0.code) \($0.meaning)" }.joined(separator: ", ") + "."
    }
}
