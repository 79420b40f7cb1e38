import NagiBase
import FoundationEssentials

/// nagi's folders after the XDG base directory rules: the variable's folder when it is an absolute path (a
/// relative one is ignored, as the rules say), else the default below `$HOME`; `nagi` inside either.
package enum XDGFolder {
    /// The user's preset folder: `$XDG_CONFIG_HOME/nagi`, default `~/.config/nagi`.
    package static var config: String? { folder(variable: "XDG_CONFIG_HOME", homeDefault: ".config") }
    /// Where course progress is kept: `$XDG_STATE_HOME/nagi`, default `~/.local/state/nagi`.
    package static var state: String? { folder(variable: "XDG_STATE_HOME", homeDefault: ".local/state") }

    /// nil when neither the variable nor `HOME` gives a folder.
    private static func folder(variable: String, homeDefault: String) -> String? {
        let environment = ProcessEnvironment.variables
        if let configured = environment[variable], configured.hasPrefix("/") {
            return FilePath(configured).appending("nagi").string
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return FilePath(home).appending(homeDefault).appending("nagi").string
    }
}
