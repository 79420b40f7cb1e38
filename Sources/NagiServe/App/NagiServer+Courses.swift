import NagiSystem
import AudioFile
import NagiBase
import Glibc
import NagiDocuments
import NagiKit
import NagiOptions

/// The course API: `GET /api/courses/NAME` (its lessons, each with its URLs), a lesson's track
/// (`/api/courses/NAME/lessons/N.EXT`, what `course export` writes for it) and schedule (`…/lessons/N/describe`), and
/// the whole album as one ZIP (`/api/courses/NAME/album.zip`). A course is named, never given as a path.
extension NagiServer {
    /// Routes `rest`, the path after `/api/courses/`.
    func course(_ request: HTTPRequest, path rest: String) -> HTTPResponse {
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let catalog = PresetEnvironment.catalog()
        guard let name = parts.first, UserFolders.isPlainName(name) else { return Self.notFound("/api/courses/" + rest) }
        let course: Course
        do {
            course = try CourseDecoder(catalog: catalog).course(named: name)
        } catch {
            return APIResponse.courseError(error)
        }
        switch parts.count {
        case 1:
            return courseDocument(course)
        case 2 where parts[1] == "album.zip":
            return album(request, course: course, catalog: catalog)
        case 3 where parts[1] == "lessons":
            // `N.EXT`, or `N` with the format from `format` (FLAC by default), as the course document links it.
            let plainNumber = Int(parts[2])
            let (number, pathFormat) = plainNumber.map { ($0, nil) } ?? Self.lessonNumberAndFormat(parts[2])
            guard let number, course.lessons.indices.contains(number - 1), plainNumber != nil || pathFormat != nil else {
                return Self.notFound("/api/courses/" + rest)
            }
            let format: AudioFileFormat
            switch Self.requestedFormat(request, path: pathFormat) {
            case let .success(chosen): format = chosen
            case let .failure(refusal): return refusal.response
            }
            return lessonTrack(request, course: course, index: number - 1, format: format, catalog: catalog)
        case 4 where parts[1] == "lessons" && parts[3] == "describe":
            guard let number = Int(parts[2]), course.lessons.indices.contains(number - 1) else { return Self.notFound("/api/courses/" + rest) }
            return lessonDescription(request, course: course, index: number - 1, catalog: catalog)
        default:
            return Self.notFound("/api/courses/" + rest)
        }
    }

    /// "3.flac" → (3, .flac); a part that is not NUMBER.EXT gives nils.
    static func lessonNumberAndFormat(_ part: String) -> (Int?, AudioFileFormat?) {
        guard let dot = part.lastIndex(of: ".") else { return (nil, nil) }
        return (Int(part[..<dot]), AudioFileFormat(fileExtension: String(part[part.index(after: dot)...])))
    }

    /// A format refused, as the answer to give.
    struct FormatRefusal: Error {
        var response: HTTPResponse
    }

    /// The format a course request asks for: the path's extension (`3.mp3`), else the `format` parameter, else FLAC
    /// (what `course export` writes by default); a `format` that is no audio format, or that disagrees with the path, is
    /// refused with the command line's line.
    static func requestedFormat(_ request: HTTPRequest, path pathFormat: AudioFileFormat?) -> Result<AudioFileFormat, FormatRefusal> {
        let formats = AudioFileFormat.allCases.filter { $0 != .raw }
        if let pathFormat, pathFormat == .raw { return .failure(FormatRefusal(response: notFound(request.path))) }
        guard let given = request.queryValue("format") else { return .success(pathFormat ?? .flac) }
        guard let chosen = AudioFileFormat(rawValue: given), chosen != .raw else {
            let error = NagiError.arguments(.invalidValue(option: "--format", value: given, expected: "one of: " + formats.map(\.rawValue).joined(separator: ", ")))
            return .failure(FormatRefusal(response: APIResponse.error(error, parameter: "format")))
        }
        if let pathFormat, pathFormat != chosen {
            return .failure(FormatRefusal(response: APIResponse.error(
                .usage("the path asks for \(pathFormat.rawValue) and the parameter 'format' for \(chosen.rawValue): give one"), parameter: "format")))
        }
        return .success(chosen)
    }

    /// The course's lessons with their lengths and URLs.
    private func courseDocument(_ course: Course) -> HTTPResponse {
        let lengths: [Int64]
        do { lengths = try CourseOptions.lessonLengths(course) } catch { return APIResponse.error(error) }
        let base = "/api/courses/" + Self.percentEncoded(course.name)
        let lessons = course.lessons.enumerated().map { index, lesson in
            let number = index + 1
            return CourseDocument.Lesson(
                number: number, title: lesson.title, pattern: lesson.patternLabel, soundscape: lesson.soundscape ?? SoundscapeResolver.defaultName,
                seconds: JSONDecimal(microseconds: lengths[index]), render: "\(base)/lessons/\(number)", describe: "\(base)/lessons/\(number)/describe",
                pace: "/pace?course=\(Self.percentEncoded(course.name))&lesson=\(number)")
        }
        return APIResponse.json(CourseDocument(
            name: course.name, title: course.title, summary: JSONNullable(course.description),
            totalSeconds: JSONDecimal(microseconds: lengths.reduce(0, +)), album: base + "/album.zip", lessons: lessons))
    }

    /// `GET /api/courses/NAME`: the course, its length in seconds, and each lesson with its URLs.
    private struct CourseDocument: Encodable {
        /// One lesson: its number from 1, what it plays, its length in seconds, and where to render, describe and pace it.
        struct Lesson: Encodable {
            var number: Int
            var title, pattern, soundscape: String
            var seconds: JSONDecimal
            var render, describe, pace: String
        }

        var name, title: String
        /// The course's description; `null` when it has none.
        var summary: JSONNullable<String>
        var totalSeconds: JSONDecimal
        var album: String
        var lessons: [Lesson]
    }

    /// The export settings a request asks for (its query read as `course export`'s options), in `folder`.
    private func exportSettings(_ request: HTTPRequest, course: Course, format: AudioFileFormat?, folder: String) throws(QueryError) -> CourseExporter.Settings {
        // `format` is the server's own parameter (the path may name it), so it is given as the option here.
        let arguments = try QueryArguments.parse(
            request.query, for: CourseOptions.exportSpec, tolerating: [RenderOptions.spec, DescribeOptions.spec], positionals: [course.name],
            options: format.map { [.option(OutputOptions.folderFormat.name, value: $0.rawValue)] } ?? [], folders: folders)
        do {
            var settings = try CourseOptions.exportSettings(arguments, course: course)
            settings.folder = folder
            return settings
        } catch {
            throw QueryError(error)
        }
    }

    /// `GET /api/courses/NAME/lessons/N.EXT`: lesson N's track, as `course export` writes it (tags, track number,
    /// chapters), streamed; a WAV has its ranges.
    private func lessonTrack(_ request: HTTPRequest, course: Course, index: Int, format: AudioFileFormat, catalog: PresetCatalog) -> HTTPResponse {
        let plan: CourseExporter.TrackPlan
        do {
            let settings = try exportSettings(request, course: course, format: format, folder: ".")
            plan = try CourseExporter.plan(lesson: index, of: course, settings: settings, catalog: catalog)
        } catch let error as QueryError {
            return APIResponse.error(error)
        } catch let error as SoundtrackError {
            return APIResponse.error(NagiError(error))
        } catch {
            return APIResponse.error("\(error)", status: 500)
        }
        let full = plan.requestWithTarget
        if let refusal = refusingLength(of: full) { return refusal }
        let download = request.queryValue("download").map(Self.isYes) == true ? plan.fileName : nil
        return stream(full, identity: plan.identity, file: plan.file, for: request, download: download)
    }

    /// `GET /api/courses/NAME/lessons/N/describe`: lesson N's schedule as `/api/describe` gives a session's, under the
    /// lesson's own cues and count unless the query names them.
    private func lessonDescription(_ request: HTTPRequest, course: Course, index: Int, catalog: PresetCatalog) -> HTTPResponse {
        let lesson = course.lessons[index]
        return APIResponse.answering {
            let arguments = try QueryArguments.parse(request.query, for: DescribeOptions.spec, tolerating: [RenderOptions.spec, CourseOptions.exportSpec], folders: folders)
            let rate = try SampleRateOptions(arguments).sampleRate
            let cues = try arguments[DescribeOptions.cues] ?? (arguments[DescribeOptions.noCues] ? CueMode.none : lesson.cues.flatMap(CueMode.init(rawValue:)))
            let count = try arguments[DescribeOptions.count] ?? lesson.count.flatMap(CountMode.init(rawValue:))
            let framing = try DescribeOptions.framing.read(arguments)
            let session = SessionOptions(session: lesson.session, name: lesson.patternLabel, sampleRate: rate)
            let describe = try DescribeOptions(session: session, cues: cues, count: count, countdownSeconds: framing.countdownSeconds, endBell: framing.endBell, catalog: catalog)
            return APIResponse.json(describe.json)
        }
    }

    /// `GET /api/courses/NAME/album.zip?format=flac`: the album `course export --labels` writes (the tracks, with their
    /// album gain, each one's chapters as a label track, and the playlist) and the album's cue sheet, exported into a
    /// temporary folder and sent as one ZIP; the folder is removed after. 304 and HEAD without exporting.
    private func album(_ request: HTTPRequest, course: Course, catalog: PresetCatalog) -> HTTPResponse {
        let format: AudioFileFormat
        switch Self.requestedFormat(request, path: nil) {
        case let .success(chosen): format = chosen
        case let .failure(refusal): return refusal.response
        }
        var settings: CourseExporter.Settings
        do {
            settings = try exportSettings(request, course: course, format: format, folder: "")
        } catch {
            return APIResponse.error(error)
        }
        var plans: [CourseExporter.TrackPlan] = []
        for index in course.lessons.indices {
            do {
                let plan = try CourseExporter.plan(lesson: index, of: course, settings: settings, catalog: catalog)
                if let refusal = refusingLength(of: plan.requestWithTarget) { return refusal }
                plans.append(plan)
            } catch {
                return APIResponse.error(NagiError(error))
            }
        }
        // The album's tag is its tracks' (each one's identity, file and name in the ZIP) under the course's name.
        let validator = RenderValidator(
            files: plans.map { ($0.fileName, $0.identity, $0.file) }, delivery: "album " + course.name, requests: plans.map(\.requestWithTarget))
        if validator.isMatched(byIfNoneMatch: request.header("if-none-match")) { return HTTPResponse(status: 304, headers: validator.headers) }
        let fileName = FileNames.safeStem(course.name)
        if request.method == "HEAD" {
            let headers = [("Content-Type", "application/zip"), ("Content-Disposition", ContentDisposition.attachment(fileName: fileName + ".zip"))]
            return headersAlone(status: 200, headers: headers + validator.headers, byteCount: nil)
        }
        guard let folder = TemporaryFolder.make(prefix: "nagi-album-") else {
            return APIResponse.error("cannot make a temporary folder: \(Errno.current.description)", status: 500)
        }
        settings.folder = folder
        settings.jobCount = 1
        // The chapters as text beside each track (Audacity's label tracks), as `course export --labels` writes them.
        settings.writesLabels = true
        let exportSettings = settings
        let guideClips = self.guideClips
        // Prepared, exported and archived under the render's slot; every lesson was checked above, so what fails
        // now fails the download part way (the client sees it cut short).
        let response = streamProduced(contentType: "application/zip", fileName: fileName + ".zip", headers: validator.headers) { descriptor, cancel in
            defer { TemporaryFolder.remove(folder) }
            do {
                let exporter = try CourseExporter(course: course, settings: exportSettings, catalog: catalog, guideClips: guideClips, cancel: cancel)
                _ = try exporter.export(cancel: cancel)
                // The album's cue sheet, beside the playlist: both name the tracks by the names they have in the ZIP.
                let sheet = CueSheet.albumText(files: exporter.tracks.map { ($0.fileName, $0.file.format, $0.file.tags) })
                let sheetPath = FilePath(folder).appending(course.name + ".cue").string
                try TextFileOutput.write(sheet, to: sheetPath, overwrite: true)
                var files = exporter.tracks.flatMap { track in
                    [(track.fileName, track.path), (FilePath(track.labelsPath).lastComponent, track.labelsPath)]
                }
                files += [(course.name + ".m3u8", exporter.playlistPath), (course.name + ".cue", sheetPath)]
                try AlbumArchive.write(files, folderName: fileName, into: descriptor, cancel: cancel)
                return true
            } catch {
                return false
            }
        }
        // No producer started: nothing else will remove the folder.
        if case .bytes = response.body { TemporaryFolder.remove(folder) }
        return response
    }

    /// `text` with everything but unreserved characters percent-encoded, for a path segment or query value.
    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }
}
