/// A structured course ("21 days for beginners"): lessons in order, each its own session.
public struct Course: Sendable {
    /// One lesson: a title, the session to practise, and optionally the soundscape to hear it on.
    public struct Lesson: Sendable {
        public var title: String
        public var session: Session
        /// How the lesson's pattern was written ("coherent", "4-7-8", "custom"), for tables.
        public var patternLabel: String
        /// A soundscape name or path, if the lesson asks for one.
        public var soundscape: String?
        /// The lesson's guidance, as the command line spells it (`cues` chimes|voice|both|none, `count`
        /// none|ticks|voice, `voice` slt|rms|awb|kal16); nil where the lesson leaves the default.
        public var cues: String?
        public var count: String?
        public var voice: String?
        /// A beat on the tone, if the lesson asks for one (the command line's `--beat` replaces it).
        public var beat: LessonBeat?
        /// An integrated loudness target in LUFS, if the lesson asks for one (`--loudness` replaces it).
        public var loudnessLUFS: Double?

        /// A recording to lay under the lesson (`"bed"`), as written in the course file; nil for none.
        public var bed: String?
        /// The bed's level (`"bedLevel"`), LU relative to the nominal −20 LUFS; nil for the default.
        public var bedLevelDecibels: Double?

        public init(title: String, session: Session, patternLabel: String, soundscape: String?, cues: String? = nil, count: String? = nil, voice: String? = nil, bed: String? = nil, bedLevelDecibels: Double? = nil) {
            self.title = title
            self.session = session
            self.patternLabel = patternLabel
            self.soundscape = soundscape
            self.cues = cues
            self.count = count
            self.voice = voice
            self.bed = bed
            self.bedLevelDecibels = bedLevelDecibels
        }
    }

    /// The course's short name ("beginner-21"), used for file names and the progress record.
    public var name: String
    public var title: String
    public var description: String?
    public var lessons: [Lesson]
    /// The exported album's artist, album title, genre and cover picture (a path relative to the course file);
    /// nil for nagi's defaults (artist nagi, album = title, genre Meditation, no cover).
    public var artist: String?
    public var album: String?
    public var genre: String?
    public var cover: String?

    public init(name: String, title: String, description: String?, lessons: [Lesson], artist: String? = nil, album: String? = nil, genre: String? = nil, cover: String? = nil) {
        self.name = name
        self.title = title
        self.description = description
        self.lessons = lessons
        self.artist = artist
        self.album = album
        self.genre = genre
        self.cover = cover
    }
}

/// A lesson's beat as the course file writes it: a rate or a glide, and how it is heard ("binaural" or
/// "isochronic"; nil leaves it to the command line's default).
public struct LessonBeat: Sendable, Equatable {
    /// The rate at the lesson's start and end, Hz (equal for a steady beat).
    public var startHz: Double
    public var endHz: Double
    /// "binaural" or "isochronic", checked by the decoder.
    public var style: String?

    public init(startHz: Double, endHz: Double, style: String?) {
        self.startHz = startHz
        self.endHz = endHz
        self.style = style
    }
}
