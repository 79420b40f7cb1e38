#ifndef NAGI_CTAGLIB_H
#define NAGI_CTAGLIB_H

// A C interface to the parts of TagLib nagi uses: write a finished file's tags, chapters, gains and cover, and
// read them back. Each call opens, changes or reads, and closes the file: the TagLib handles live inside one
// call and are owned by it.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The containers nagi tags.
typedef enum {
    NAGI_TAG_FORMAT_WAV = 1,
    NAGI_TAG_FORMAT_FLAC = 2,
    NAGI_TAG_FORMAT_OGG_VORBIS = 3,
    NAGI_TAG_FORMAT_OPUS = 4,
    NAGI_TAG_FORMAT_MP3 = 5,
} nagi_tag_format;

/// One text field under its TagLib property name ("TITLE", "TRACKNUMBER", "REPLAYGAIN_TRACK_GAIN",
/// "CHAPTER001NAME"); UTF-8, NUL-terminated.
typedef struct {
    const char *key;
    const char *value;
} nagi_tag_field;

/// One chapter for ID3v2 CHAP frames (MP3): milliseconds from the start.
typedef struct {
    uint32_t start_milliseconds;
    uint32_t end_milliseconds;
    /// UTF-8, NUL-terminated.
    const char *title;
} nagi_tag_chapter;

/// A WAV cue point's labelled text, for the `LIST adtl` chunk's `labl` entries: the cue point's ID (libsndfile
/// numbers them from 1 in frame order) and its UTF-8, NUL-terminated text.
typedef struct {
    uint32_t cue_id;
    const char *text;
} nagi_tag_cue_label;

/// Everything one call writes.
typedef struct {
    const nagi_tag_field *fields;
    size_t field_count;
    /// Written as ID3v2 CHAP + CTOC (nagi passes them for MP3); Vorbis-comment formats carry chapters as fields.
    const nagi_tag_chapter *chapters;
    size_t chapter_count;
    /// Front cover bytes (PNG or JPEG) and their MIME type, or NULL.
    const uint8_t *picture;
    size_t picture_byte_count;
    const char *picture_mime_type;
    /// Image size for FLAC's picture block (0 when unknown).
    uint32_t picture_width;
    uint32_t picture_height;
    /// Nonzero: the file's tags become exactly these (fields, chapters, cover). Zero: only the given fields are
    /// set, everything else kept (the album gains added after a whole export).
    int replaces_everything;
    /// WAV only: labels for the cue points libsndfile wrote, appended as a `LIST adtl` chunk (with
    /// `replaces_everything`).
    const nagi_tag_cue_label *cue_labels;
    size_t cue_label_count;
} nagi_tag_set;

/// Writes `tags` into the file at `path` and saves it (TagLib rewrites the file in place; the caller fsyncs).
/// Returns 0, or -1 with a one-line reason (no path, no newline) in `error`.
int nagi_tag_write(const char *path, nagi_tag_format format, const nagi_tag_set *tags, char *error,
                   size_t error_capacity);

/// Receives one read-back item: a property ("TITLE"), or one of nagi's own keys starting with ':'
/// (":LENGTH_MILLISECONDS", ":PICTURE" = "image/png 1234"). MP3 and WAV chapters arrive as the Vorbis
/// chapter fields (CHAPTER001, CHAPTER001NAME), so every format reads alike.
typedef void (*nagi_tag_visitor)(void *context, const char *key, const char *value);

/// Reads the file's tags, chapters, cover and length through TagLib, calling `visit` for each.
/// Returns 0, or -1 with a one-line reason in `error`.
int nagi_tag_read(const char *path, nagi_tag_format format, void *context, nagi_tag_visitor visit, char *error,
                  size_t error_capacity);

#ifdef __cplusplus
}
#endif

#endif
