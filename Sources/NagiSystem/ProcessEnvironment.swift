import FoundationEssentials

/// The environment variables a command reads: the process's own, or those bound for one run of the command line
/// in process (a test, an app embedding it), so that two runs side by side each see their own `HOME` and XDG
/// folders. Every reader of nagi's variables asks here, never `getenv` or `ProcessInfo` directly.
package enum ProcessEnvironment {
    /// Variables bound for the task running a command (`NagiCommandLine.run(_:context:)` binds them), nil outside
    /// one: then the process's own. A task-local, so a worker thread of a command sees the process's.
    @TaskLocal package static var bound: [String: String]?

    /// The variables in force: the bound ones, else the process's.
    package static var variables: [String: String] { bound ?? ProcessInfo.processInfo.environment }

    /// The variable `name`, nil when it is unset.
    package static func value(_ name: String) -> String? { variables[name] }

    /// The folder for temporary files: `TMPDIR` when it is set and not empty, else `/tmp`.
    package static var temporaryFolder: String {
        guard let folder = value("TMPDIR"), !folder.isEmpty else { return "/tmp" }
        return folder
    }
}
