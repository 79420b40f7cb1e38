import AudioFile
import NagiKit

extension RenderOptions {
    /// The render's one identity written as `format`: its sound's key, its title tag and its file name (the
    /// session's name), as the command line and the server name it.
    package func identity(format: AudioFileFormat) -> SoundtrackIdentity {
        SoundtrackIdentity(request: request, format: format, title: tags.title ?? session.name, name: session.name)
    }

    /// The stem of the render's file name, before its format is known (`-o`'s default).
    package var fileStem: String {
        SoundtrackIdentity.fileStem(naming: session.name)
    }
}
