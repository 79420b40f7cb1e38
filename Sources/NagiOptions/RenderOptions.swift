import AudioFile
import NagiDocuments
import NagiKit

/// What a render reads from its options, for `nagi render` and `nagi serve`'s `/api/render`: the session, the
/// sound, the guide and the tags, made into NagiKit's request and, for a format, its file description, each
/// checked before anything is prepared or created.
package struct RenderOptions {
    package static let title = Option<String>(["--title"], valueName: "T", help: "The title tag (default: the pattern's title and length).", overHTTP: true)
    /// A path: the command line's alone.
    package static let labels = Option<String>(["--labels"], valueName: "FILE|-", help: "Also write an Audacity label track: start, end and phase, one line per phase, and one spanning each labelled stage (resonance-steps' rates). - writes it to standard output (after the audio is complete).", completion: .file)
    /// A path: the command line's alone.
    package static let cueSheet = Option<String>(["--cue-sheet"], valueName: "FILE", help: "Also write a cue sheet naming the audio file, with a track at each chapter (see --chapters), for cue-aware players.", completion: .file)
    /// The machine's cores are the server's to share (`nagi serve --jobs`), not a request's.
    package static let threads = Option<Int>(["--threads"], valueName: "N", help: "Render on N threads at once, in consecutive slices, while the file is written, and speak the guide's words in up to N processes, one a core (1–64; default: the machine's cores). The output is the same byte for byte whatever N; threads beyond the cores gain no speed and take 1 to 4 MB of memory each (the most under a long bed).", wholeNumberIn: 1...64)
    package static let force = Flag(["--force"], help: "Replace existing files.")
    package static let quiet = Flag(["--quiet"], help: "Print nothing but errors.")

    /// `nagi render`'s options and help: the ones `nagi serve`'s `/api/render` takes are these less the file system's.
    package static let spec = CommandSpec(
        name: "render",
        summary: "Render a breathing session to an audio file (WAV, FLAC, Ogg, Opus, MP3, raw PCM) or standard output.",
        positionals: [SessionOptions.patternPositional],
        groups: [OutputOptions.fileGroup] + SessionOptions.groups + [SynthesisOptions.group, GuidanceOptions.group, BedOptions.group, BeatOptions.group, LoudnessOptions.group, TagOptions.group],
        options: [title.spec, labels.spec, cueSheet.spec, threads.spec, force.spec, quiet.spec],
        discussion: """
        The file's frame 0 is the schedule's frame 0: every phase starts exactly where `nagi describe` \
        says. WAV files carry their chapters as cue points, each named with its chapter's title. Files are \
        tagged through TagLib (title, artist, album, genre Meditation, the year, a comment naming the \
        pattern, nagi's version, the cover) with chapters (ID3v2 CHAP in MP3, named cue points in WAV, \
        CHAPTERnnn Vorbis comments in FLAC, Ogg and Opus) and \
        the ReplayGain 2.0 track gain and peak from the audio as written (R128_TRACK_GAIN in Opus). A \
        stream (-o -) carries the text tags only (an MP3 stream: those in Latin-1). The file appears only when complete \
        (written to a hidden temporary file, then renamed); Ctrl-C leaves nothing behind. With --labels, \
        both outputs are checked before rendering and appear together, or neither does.

        Standard output (-o -) streams: WAV with sizes that say "unknown" (as ffmpeg writes it to a \
        pipe; sox, ffmpeg and Python's wave read it), the same samples as a WAV file, or flac, ogg, \
        opus, mp3 or raw with --format (a FLAC stream's total sample count reads 0: unknown). \
        Progress and the summary go to standard error. When the reader closes the pipe early \
        (| head -c 1000), nagi stops quietly with exit code 141, like a program stopped by SIGPIPE.

        Examples:
          nagi render
          nagi render box --minutes 10 -o box.flac
          nagi render coherent --soundscape rain --no-cues -o coherent.ogg --quality 5
          nagi render wim-hof --labels wim-hof.txt
          nagi render 4-7-8 --cues both --count voice --voice rms
          nagi render box --cue-pack ~/bowls --cue-volume -6
          nagi render box --minutes 10 --bed waves.flac --bed-level -10 -o box.flac
          nagi render coherent --minutes 20 --beat 10:6 --loudness -16 -o coherent.ogg
          nagi render box -o - | sox -t wav - box.flac
          nagi render 4-7-8 -o - --format raw --bits float | aplay -t raw -f FLOAT_LE -r 48000 -c 2
        """
    )

    /// PATTERN (or `--bpm`) at its length and rate.
    package let session: SessionOptions
    /// The synthesis, beat, loudness and bed options.
    package let sound: SoundOptions
    /// The guide's options.
    package let guidance: GuidanceOptions
    /// The name the soundscape goes by ("horizon", "night" for `auto` at night, a file's stem).
    package let soundscapeName: String
    /// What the engine is asked for.
    package let request: SoundtrackRequest
    /// The tags every format of it carries (the chapters are the file description's).
    package let tags: AudioTags
    /// `--chapters` as given.
    package let chapters: ChapterMarks?

    /// Reads a render's options; PATTERN defaults to 4-7-8.
    package init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(NagiError) {
        session = try SessionOptions(arguments, catalog: catalog)
        sound = try SoundOptions(arguments)
        guidance = try GuidanceOptions(arguments)
        let (soundscape, soundscapeName) = try sound.synthesis.soundscape.resolve(catalog: catalog)
        self.soundscapeName = soundscapeName
        let schedule = try session.schedule()
        let title = try TagOptions.displayText(Self.title, in: arguments) ?? session.titleTag(totalMicroseconds: schedule.totalMicroseconds)
        let tagOptions = try TagOptions(arguments)
        tags = AudioTags(
            title: title,
            artist: tagOptions.artist ?? "nagi",
            album: tagOptions.album,
            comment: SoundtrackTags.comment(pattern: session.name, schedule: schedule, soundscape: soundscapeName),
            date: SoundtrackTags.currentYear, genre: SoundtrackTags.defaultGenre, encoder: SoundtrackTags.encoder,
            cover: tagOptions.cover)
        chapters = tagOptions.chapters
        request = try sound.request(guidance: guidance, schedule: schedule, soundscape: soundscape)
    }

    /// The description of a `format` file at `quality` (0…1) with `--bits` as given: the options' own rules
    /// (`OutputChoice.encoding`) before the engine's (`SoundtrackRequest.fileDescription`: what libsndfile can
    /// write, a WAV's 4 GiB).
    package func fileDescription(format: AudioFileFormat, quality: Double?) throws(NagiError) -> SoundtrackFileDescription {
        let encoding = try OutputChoice.encoding(format: format, bits: sound.synthesis.bits, quality: quality)
        do {
            return try request.fileDescription(format: format, encoding: encoding, quality: quality, tags: tags, chapters: format == .raw ? ChapterMarks.none : chapters)
        } catch {
            throw NagiError(error)
        }
    }
}
