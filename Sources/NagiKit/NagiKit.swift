// NagiKit: nagi's soundtrack engine as a library. One capability: prepare a session's sound once
// (`Soundtrack.prepare`), then pull it (`SoundtrackRenderer`), seek in it, write it (`Soundtrack.write`) or
// play it. What a caller needs to build a request and read a result comes with `import NagiKit`: the breath
// model (patterns, sessions, schedules), the documents (presets, JSON), the sound design (soundscapes,
// beats, guide modes), the session plot (SVG) and the file formats (AudioFileSpec, AudioTags). See docs/library.md.

@_exported import AudioFile
@_exported import BedSource
@_exported import Breath
@_exported import NagiDocuments
@_exported import NagiPlot
@_exported import NagiPresets
@_exported import Speech
@_exported import Synth

import LiveAudio

// Live playback's device side, as a `LiveSession` takes it: an app plays into ALSA (`ALSAPlaybackDevice`) or into a
// device of its own (`PCMSink`), and steers the session with `LiveKey`s.
public typealias PCMSink = LiveAudio.PCMSink
public typealias PCMWriteResult = LiveAudio.PCMWriteResult
public typealias ALSAPlaybackDevice = LiveAudio.ALSAPlaybackDevice
public typealias PCMSampleFormat = LiveAudio.PCMSampleFormat
public typealias LiveKey = LiveAudio.LiveKey
public typealias PlaybackProgress = LiveAudio.PlaybackProgress
