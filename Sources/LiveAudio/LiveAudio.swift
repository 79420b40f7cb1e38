// LiveAudio module.
