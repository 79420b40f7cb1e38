import Breath
import NagiDocuments
import NagiKit
import Synth

/// `--soundscape NAME|FILE`: which soundscape a command sounds (or plots) with.
package struct SoundscapeOptions {
    package static let soundscape = Option<String>(["--soundscape"], valueName: "NAME|FILE", help: "horizon (default), night, dusk, rain, auto (by the local hour), or a soundscape JSON file. In a course it replaces every lesson's own.", completion: .soundscapes, overHTTP: true)

    package static let group = OptionGroup(title: "Soundscape", options: [soundscape.spec])

    /// The reference given on the command line, if any.
    package var reference: String?

    package init(_ arguments: ParsedArguments) {
        reference = arguments.text(of: Self.soundscape)
    }

    /// The soundscape that applies, decoded, and the name it goes by: an explicit `--soundscape` over a course
    /// lesson's soundscape over the default (horizon), the one rule of `SoundtrackRequest.chosen`.
    package func resolve(lesson lessonReference: String? = nil, catalog: PresetCatalog) throws(NagiError) -> (soundscape: Soundscape, name: String) {
        try Self.resolve(SoundtrackRequest.chosen(reference, lesson: lessonReference), catalog: catalog)
    }

    /// `reference` (nil: the default) resolved, its fault as the command line reports it.
    package static func resolve(_ reference: String?, catalog: PresetCatalog) throws(NagiError) -> (soundscape: Soundscape, name: String) {
        do { return try SoundscapeResolver.resolve(reference, catalog: catalog) } catch { throw .breath(error) }
    }
}
