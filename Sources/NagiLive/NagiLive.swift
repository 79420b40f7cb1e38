// NagiLive: live playback over NagiKit. A prepared `Soundtrack` played as it is heard (`LiveSession`): into ALSA
// (`ALSAPlaybackDevice`) or a device of the app's own (`PCMSink`), steered by `LiveKey`s, its breaths and holds
// tallied as they are heard. A layer of its own so that the engine links no audio device: an app that only
// renders or writes files depends on NagiKit alone.
//
// `import NagiLive` brings, besides `LiveSession`, the device side of LiveAudio a session takes, named here; the
// rest of LiveAudio is nagi's internals. docs/library.md lists the whole surface (scripts/public-api.py).

import LiveAudio

// Live playback's device side, as a `LiveSession` takes it: an app plays into ALSA (`ALSAPlaybackDevice`) or into a
// device of its own (`PCMSink`), and steers the session with `LiveKey`s.
public typealias PCMSink = LiveAudio.PCMSink
public typealias PCMWriteResult = LiveAudio.PCMWriteResult
public typealias ALSAPlaybackDevice = LiveAudio.ALSAPlaybackDevice
public typealias PCMSampleFormat = LiveAudio.PCMSampleFormat
public typealias LiveKey = LiveAudio.LiveKey
public typealias PlaybackProgress = LiveAudio.PlaybackProgress
