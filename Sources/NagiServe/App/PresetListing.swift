import NagiDocuments
import NagiKit

/// `GET /api/presets`: the presets `nagi presets` lists, and the user's own beds and cue packs by name:
/// `{"patterns": […], "soundscapes": […], "courses": […], "beds": […], "cuePacks": […]}`.
struct PresetListing: Encodable {
    /// One preset: its name, its summary (no file system path), and whether the user added it; a course also has
    /// its title and number of lessons.
    struct Entry: Encodable {
        var name: String
        var summary: String
        var title: String?
        var lessonCount: Int?
        var user: Bool
    }

    var patterns, soundscapes, courses: [Entry]
    var beds, cuePacks: [String]

    /// The presets of `catalog`, the soundscapes followed by `auto`, and the beds and cue packs in `folders`.
    init(catalog: PresetCatalog, folders: UserFolders) {
        func entries(_ category: PresetCatalog.Category) -> [Entry] {
            catalog.entries(in: category).map { entry in
                var listed = Entry(name: entry.name, summary: ServedText.withoutPaths(entry.summary), user: entry.origin != .builtin)
                if category == .courses, let course = try? CourseDecoder(catalog: catalog).course(named: entry.name) {
                    listed.title = course.title
                    listed.lessonCount = course.lessons.count
                }
                return listed
            }
        }
        patterns = entries(.patterns)
        soundscapes = entries(.soundscapes) + [Entry(name: "auto", summary: SoundscapeResolver.autoSummary, user: false)]
        courses = entries(.courses)
        beds = folders.bedNames
        cuePacks = folders.cuePackNames
    }
}
