// AudioFile module.
