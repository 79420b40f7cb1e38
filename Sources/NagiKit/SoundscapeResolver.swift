import NagiSystem
import NagiBase
import Breath
import FoundationEssentials
import Glibc
import NagiDocuments
import Synth

/// Finds the soundscape a command or an app asks for: a preset name, `auto` (by the local hour), or a JSON path.
public enum SoundscapeResolver {
    /// The soundscape used when none is named.
    public static let defaultName = "horizon"

    /// What `auto` does, in a listing's words.
    public static let autoSummary = "Picks by the local hour: horizon by day (6–18), dusk (19–20), night otherwise."

    /// Resolves `reference` (nil means the default) to a decoded soundscape and the name it goes by.
    public static func resolve(_ reference: String?, catalog: PresetCatalog, hour: Int = currentHour()) throws(BreathError) -> (soundscape: Soundscape, name: String) {
        var name = reference ?? defaultName
        if name == "auto" {
            name = SoundscapeChoice.autoName(hour: hour)
        }
        if PresetCatalog.isFilePath(name) {
            let (value, file) = try PresetFiles.parseFile(name)
            // A bed the file names relative to itself is found from any working directory.
            let soundscape = try BreathError.reportingContent { () throws(ContentError) in try Soundscape.decode(value, file: file) }
            return (soundscape.resolvingBed(relativeTo: FilePath(name).parent.string), PresetCatalog.name(ofFile: name))
        }
        guard let entry = catalog.entry(named: name, in: .soundscapes) else {
            throw catalog.notFound(name, in: .soundscapes)
        }
        let soundscape = try BreathError.reportingContent { () throws(ContentError) in
            try Soundscape.decode(entry.parsed(), file: entry.fileDescription)
        }
        return (soundscape, name)
    }

    /// The local hour, 0 to 23, for `auto`.
    public static func currentHour() -> Int {
        FileSystem.localHour()
    }
}
