import Breath
import NagiBase

/// An extended M3U playlist (UTF-8): `#EXTM3U`, then `#EXTINF:seconds,title` and the relative path per track.
public enum Playlist {
    public static func m3u8(course: Course, tracks: [(fileName: String, title: String, durationMicroseconds: Int64)]) -> String {
        var text = "#EXTM3U\n#PLAYLIST:\(oneLine(course.title))\n"
        for track in tracks {
            // Whole seconds, to the nearest: what a player shows for the file.
            let seconds = (track.durationMicroseconds + 500_000) / 1_000_000
            text += "#EXTINF:\(seconds),\(oneLine(track.title))\n\(track.fileName)\n"
        }
        return text
    }

    /// Titles come from JSON (where `DisplayText`'s rule already refused what is dropped here): keep them on one line.
    static func oneLine(_ text: String) -> String {
        DisplayText.visible(text)
    }
}
