import NagiKit
import NagiOptions
import NagiSystem

/// Text the server sends, less the file system: a request never names a file, and an answer never names one either
/// (where the server keeps the user's presets, its HOME or its TMPDIR is none of a client's business). A line the
/// command line would print naming a user's preset file names it from the user's nagi folder instead
/// ("patterns/mine.json: …").
enum ServedText {
    /// `text` with every path under the user's nagi folder, HOME or TMPDIR (of the environment bound to this
    /// request) made relative to it.
    static func withoutPaths(_ text: String) -> String {
        var roots: [String] = []
        if let presets = PresetEnvironment.userPresetFolder { roots.append(presets) }
        if let home = ProcessEnvironment.value("HOME") { roots.append(home) }
        roots.append(ProcessEnvironment.temporaryFolder)
        var cleaned = text
        // The longest first: the nagi folder lies in HOME.
        for root in roots.filter({ $0.count > 1 }).sorted(by: { $0.count > $1.count }) {
            let prefix = root.hasSuffix("/") ? root : root + "/"
            cleaned = cleaned.replacing(prefix, with: "")
        }
        return cleaned
    }
}
