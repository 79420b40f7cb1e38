import NagiBase
import AudioFile
import Breath
import NagiDocuments
import NagiKit

/// The options that name and shape a course: NAME (a preset or a course file), and `course export`'s, read into
/// NagiKit's `CourseExporter.Settings` for the command line and for `nagi serve`'s lesson and album downloads.
package enum CourseOptions {
    /// A flag here (the file is named after each track), the command line's alone.
    package static let labels = Flag(["--labels"], help: "Also write an Audacity label track beside each track ('NN - Title.txt').")
    /// The machine's cores are the server's to share, not a request's.
    package static let jobs = Option<Int>(["--jobs"], valueName: "N", help: "Tracks rendered at once, 1 to 64 (default: the number of cores).", wholeNumberIn: 1...64)
    package static let force = Flag(["--force"], help: "Redo every track, replacing existing files.")

    /// NAME.
    package static let courseArgument = PositionalSpec(name: "NAME", help: "A course preset name (see `nagi course list`) or a path to a course JSON file.", completion: .courses)

    /// `nagi course export`'s options and help; `nagi serve`'s lesson and album downloads take them, less the file system's.
    package static let exportSpec = CommandSpec(
        name: "export",
        summary: "Export every lesson as a track named 'NN - Title.ext', with a playlist, in parallel.",
        positionals: [courseArgument],
        groups: [OutputOptions.folderGroup, SampleRateOptions.group, SynthesisOptions.group, GuidanceOptions.group, BedOptions.group, BeatOptions.group, LoudnessOptions.group, TagOptions.group],
        options: [labels.spec, jobs.spec, force.spec, RenderOptions.quiet.spec],
        discussion: """
        Tracks are tagged through TagLib as an album: album = the course's album or title, title = lesson \
        title, track = NN/total, disc 1/1, artist nagi (or the course's "artist"), genre Meditation (or \
        its "genre"), the cover (--cover, or the course's "cover"), chapters at each phase or stage, and \
        ReplayGain 2.0 track and album gains (R128 in Opus): the album gain is over every track of the \
        export, added to each track once all are written. The playlist gives each track's real length. \
        A second run skips tracks already exported with the same settings (recorded in DIR/.nagi-manifest.json \
        with each file's size and modification time) and leaves them untouched; a track replaced or changed \
        since is redone, and --force redoes everything. Ctrl-C leaves only whole tracks. An explicit \
        --soundscape replaces every lesson's own; without it each lesson sounds as the course says. \
        A lesson may set "cues", "count" and "voice"; --cues, --count and --voice replace them.
        """
    )

    /// Loads the course named by the first positional: a preset name or a JSON path.
    package static func loadCourse(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(NagiError) -> Course {
        guard let reference = arguments.positionals.first else {
            throw .arguments(.missingArgument("NAME"))
        }
        let decoder = CourseDecoder(catalog: catalog)
        do throws(BreathError) {
            if PresetCatalog.isFilePath(reference) {
                let (value, file) = try PresetFiles.parseFile(reference)
                var course = try BreathError.reportingContent { () throws(ContentError) in try decoder.decode(value, file: file) }
                // A lesson's bed relative to the course file is found from any working directory.
                let folder = FilePath(reference).parent
                for index in course.lessons.indices {
                    if let bed = course.lessons[index].bed { course.lessons[index].bed = FilePath(bed).resolved(against: folder).string }
                }
                if let cover = course.cover { course.cover = FilePath(cover).resolved(against: folder).string }
                return course
            }
            return try decoder.course(named: reference)
        } catch {
            throw .breath(error)
        }
    }

    /// The length of each lesson in microseconds (rate-independent), checked to schedule.
    package static func lessonLengths(_ course: Course) throws(NagiError) -> [Int64] {
        var lengths: [Int64] = []
        for lesson in course.lessons {
            do {
                lengths.append(try SessionExpander.totalMicroseconds(of: lesson.session.stages))
            } catch {
                throw .breath(error)
            }
        }
        return lengths
    }

    /// `course export`'s settings from its options, but for the folder (`-o`, or the course's name), the jobs, the
    /// labels and `--force`, which are the command line's: the format (FLAC by default), quality and bits, the rate,
    /// the sound and guide (a lesson's own applying where they leave one unset) and the tags (the course's cover
    /// when `--cover` is absent).
    package static func exportSettings(_ arguments: ParsedArguments, course: Course) throws(NagiError) -> CourseExporter.Settings {
        let output = try OutputOptions(arguments)
        var settings = CourseExporter.Settings(folder: output.path ?? ".")
        settings.format = output.format ?? .flac
        settings.quality = output.quality
        settings.sampleRate = try SampleRateOptions(arguments).sampleRate
        let sound = try SoundOptions(arguments)
        settings.encoding = try OutputChoice.encoding(format: settings.format, bits: sound.synthesis.bits, quality: settings.quality)
        // Each lesson's guidance is read with it (a lesson may set cues, count and voice).
        settings.sound = sound.soundtrackOptions(guidance: try GuidanceOptions(arguments, forLessons: true))
        let tagOptions = try TagOptions(arguments, coverPath: course.cover)
        (settings.artist, settings.album, settings.cover, settings.chapters) = (tagOptions.artist, tagOptions.album, tagOptions.cover, tagOptions.chapters)
        return settings
    }
}
