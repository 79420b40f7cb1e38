import NagiDocuments
import NagiKit
import NagiSystem

/// The user's preset folder as the process's environment names it, and the catalog read from it: the configuration
/// layer's one reading of `$XDG_CONFIG_HOME` for presets, which NagiKit then takes as a value (`PresetFiles`).
package enum PresetEnvironment {
    /// The user's preset folder, following the XDG base directory rules (`$XDG_CONFIG_HOME/nagi/`, default
    /// `~/.config/nagi/`; a relative XDG path is ignored).
    package static var userPresetFolder: String? { XDGFolder.config }

    /// The catalog of built-in presets and the user's (`PresetFiles.catalog(userFolder:)` of the user's folder).
    package static func catalog() -> PresetCatalog {
        PresetFiles.catalog(userFolder: userPresetFolder)
    }

    /// The user's `.json` preset entries that are not regular files, which the catalog leaves out.
    package static func skippedUserFiles() -> [String] {
        PresetFiles.skippedUserFiles(in: userPresetFolder)
    }
}
