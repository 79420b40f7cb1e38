// NagiKit: nagi's soundtrack engine as a library. One capability: prepare a session's sound once
// (`Soundtrack.prepare`), then pull it (`SoundtrackRenderer`), seek in it, write it (`Soundtrack.write`), describe
// its file (`SoundtrackFileDescription`) or export a course (`CourseExporter`). It links no audio device, draws no
// picture and reads no user folder: live playback is NagiLive's (`LiveSession`), plotting NagiPlot's, and the
// folders (the user's presets) are the caller's to pass in.
//
// `import NagiKit` brings the breath model whole (Breath: patterns, sessions, courses, exact schedules), and of the
// other modules only the types NagiKit's own API takes or returns, named here. Their modules' other public
// declarations are nagi's internals, not NagiKit's API: docs/library.md lists the whole surface, and
// scripts/public-api.py (run by a test) fails when it changes unlisted.

@_exported import Breath

import AudioFile
import BedSource
import NagiBase
import GuideSources
import NagiDocuments
import Speech
import Synth

// Files: what a soundtrack is written as, and read back.
public typealias AudioFileFormat = AudioFile.AudioFileFormat
public typealias AudioFileSpec = AudioFile.AudioFileSpec
public typealias AudioFileError = AudioFile.AudioFileError
public typealias AudioTags = AudioFile.AudioTags
public typealias AudioChapter = AudioFile.AudioChapter
public typealias CoverArt = AudioFile.CoverArt
public typealias SampleEncoding = AudioFile.SampleEncoding

// The sound: a soundscape and a beat as a request takes them, the plan a soundtrack was compiled to.
public typealias Soundscape = Synth.Soundscape
public typealias Beat = Synth.Beat
public typealias SessionFraming = Synth.SessionFraming
public typealias RenderPlan = Synth.RenderPlan
public typealias RenderSettings = Synth.RenderSettings
public typealias SpeechVoice = Speech.SpeechVoice

// Presets: the built-in and user presets.
public typealias PresetCatalog = NagiDocuments.PresetCatalog

// The library errors a `SoundtrackError` carries.
public typealias BedStreamError = BedSource.BedStreamError
public typealias CuePackError = GuideSources.CuePackError
public typealias SpokenCueError = GuideSources.SpokenCueError

// Frames pulled a block at a time: what `SoundtrackRenderer` and `BedReader` are, and what a live player pulls.
public typealias FrameReader = NagiBase.FrameReader
