import Breath
import NagiDocuments
import NagiPresets
import Synth

/// nagi's built-in presets, for an app that names a session or a soundscape as the command line does: the
/// patterns and sessions of `nagi presets` (and inline patterns such as `4-7-8` or `5.5-5.5`), and the
/// soundscapes. A user's own preset folder and JSON files are the command line's business.
public enum BuiltinLibrary {
    /// The catalogue of built-in presets.
    public static let catalog = PresetCatalog(builtinFiles: BuiltinPresets.files)

    /// The session `reference` names: a built-in pattern or session preset, or an inline pattern, at its
    /// default length (`Session.withLength` sets another).
    /// - Throws: `BreathError` for a name that is neither (the nearest names are suggested).
    public static func session(named reference: String) throws(BreathError) -> Session {
        try SessionDecoder(catalog: catalog).resolveArgument(reference) { path throws(BreathError) in
            throw .fileNotFound(path: path, reason: "the built-in library reads no files")
        }.resolved.session
    }

    /// The built-in soundscape `name` (`horizon` is the default sound).
    /// - Throws: `BreathError` for an unknown name.
    public static func soundscape(named name: String) throws(BreathError) -> Soundscape {
        guard let entry = catalog.entry(named: name, in: .soundscapes) else {
            throw catalog.notFound(name, in: .soundscapes)
        }
        return try BreathError.reportingContent { () throws(ContentError) in
            try Soundscape.decode(entry.parsed(), file: entry.fileDescription)
        }
    }

    /// The course a course JSON document describes (`text`, named `file` in the lines of its faults), its lessons'
    /// patterns and soundscapes resolved against the built-in presets.
    /// - Throws: `BreathError` for malformed JSON or content (the line names the file and the JSON path).
    public static func course(json text: String, file: String) throws(BreathError) -> Course {
        try BreathError.reportingContent { () throws(ContentError) in
            try CourseDecoder(catalog: catalog).decode(try JSONParser.parse(text, file: file), file: file)
        }
    }
}
