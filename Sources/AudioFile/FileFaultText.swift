/// The one wording of a file action that failed, so every fault this module reports reads alike:
/// `cannot read 'rain.flac': No such file or directory`.
enum FileFaultText {
    /// "cannot `action` '`path`': `reason`".
    static func cannot(_ action: String, _ path: String, _ reason: String) -> String {
        "cannot \(action) '\(path)': \(reason)"
    }
}
