import NagiDocuments
import NagiKit

/// `GET /api/presets`: the presets `nagi presets` lists, as JSON, and the user's own beds and cue packs by name.
enum PresetListing {
    /// `{"patterns": […], "soundscapes": […], "courses": […], "beds": […], "cuePacks": […]}`.
    static func json(catalog: PresetCatalog, folders: UserFolders) -> String {
        func entries(_ category: PresetCatalog.Category) -> [String] {
            catalog.entries(in: category).map { entry in
                var fields = ["\"name\": \(JSONText.quote(entry.name))", "\"summary\": \(JSONText.quote(ServedText.withoutPaths(entry.summary)))"]
                if category == .courses, let course = try? CourseDecoder(catalog: catalog).course(named: entry.name) {
                    fields += ["\"title\": \(JSONText.quote(course.title))", "\"lessonCount\": \(course.lessons.count)"]
                }
                fields.append("\"user\": \(entry.origin == .builtin ? "false" : "true")")
                return "{" + fields.joined(separator: ", ") + "}"
            }
        }
        let auto = "{\"name\": \"auto\", \"summary\": \(JSONText.quote(SoundscapeResolver.autoSummary)), \"user\": false}"
        func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
        return "{\"patterns\": \(list(entries(.patterns))),\n \"soundscapes\": \(list(entries(.soundscapes) + [auto])),\n"
            + " \"courses\": \(list(entries(.courses))),\n \"beds\": \(list(folders.bedNames.map(JSONText.quote))),\n"
            + " \"cuePacks\": \(list(folders.cuePackNames.map(JSONText.quote)))}\n"
    }
}
