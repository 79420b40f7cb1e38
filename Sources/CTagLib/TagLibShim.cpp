// The one owner of TagLib objects in nagi: every function below opens a file object, uses it and lets it go before
// returning, so no TagLib handle crosses into Swift.

#include "CTagLib.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

#include <taglib/attachedpictureframe.h>
#include <taglib/chapterframe.h>
#include <taglib/flacfile.h>
#include <taglib/flacpicture.h>
#include <taglib/id3v2framefactory.h>
#include <taglib/id3v2tag.h>
#include <taglib/infotag.h>
#include <taglib/mpegfile.h>
#include <taglib/opusfile.h>
#include <taglib/tableofcontentsframe.h>
#include <taglib/tdebuglistener.h>
#include <taglib/textidentificationframe.h>
#include <taglib/tpropertymap.h>
#include <taglib/vorbisfile.h>
#include <taglib/wavfile.h>
#include <taglib/xiphcomment.h>

namespace {

using TagLib::ByteVector;
using TagLib::String;

/// TagLib's warnings would go to stderr in the middle of nagi's progress line; the call's result says enough.
class SilentListener : public TagLib::DebugListener {
  public:
    void printMessage(const String &) override {}
};

/// RIFF INFO text read as UTF-8, as libsndfile writes it (TagLib's default is Latin-1, which would garble the em
/// dash of every lesson title).
class UTF8InfoStrings : public TagLib::RIFF::Info::StringHandler {
  public:
    String parse(const ByteVector &data) const override { return String(data, String::UTF8); }
    ByteVector render(const String &text) const override { return text.data(String::UTF8); }
};

/// Process-wide TagLib settings, made once (TagLib keeps them in globals).
void configureOnce() {
    static std::once_flag once;
    std::call_once(once, [] {
        static SilentListener listener;
        static UTF8InfoStrings infoStrings;
        TagLib::setDebugListener(&listener);
        TagLib::RIFF::Info::Tag::setStringHandler(&infoStrings);
        TagLib::ID3v2::FrameFactory::instance()->setDefaultTextEncoding(String::UTF8);
    });
}

void fail(char *error, size_t capacity, const std::string &text) {
    if (error && capacity > 0) std::snprintf(error, capacity, "%s", text.c_str());
}

String utf8(const char *text) { return String(text ? text : "", String::UTF8); }

const char *formatName(nagi_tag_format format) {
    switch (format) {
    case NAGI_TAG_FORMAT_WAV: return "WAV";
    case NAGI_TAG_FORMAT_FLAC: return "FLAC";
    case NAGI_TAG_FORMAT_OGG_VORBIS: return "Ogg Vorbis";
    case NAGI_TAG_FORMAT_OPUS: return "Opus";
    case NAGI_TAG_FORMAT_MP3: return "MP3";
    }
    return "audio";
}

/// The fields as a property map; a key given twice keeps both values.
TagLib::PropertyMap propertyMap(const nagi_tag_set &tags) {
    TagLib::PropertyMap map;
    for (size_t index = 0; index < tags.field_count; index++) {
        String key = utf8(tags.fields[index].key);
        if (map.contains(key)) {
            map[key].append(utf8(tags.fields[index].value));
        } else {
            map.insert(key, TagLib::StringList(utf8(tags.fields[index].value)));
        }
    }
    return map;
}

ByteVector pictureBytes(const nagi_tag_set &tags) {
    return ByteVector(reinterpret_cast<const char *>(tags.picture), static_cast<unsigned int>(tags.picture_byte_count));
}

/// Sets an ID3v2 tag's frames: replacing all of them, or only the given properties.
void writeID3v2(TagLib::ID3v2::Tag *tag, const nagi_tag_set &tags) {
    using namespace TagLib::ID3v2;
    if (!tags.replaces_everything) {
        TagLib::PropertyMap merged = tag->properties();
        TagLib::PropertyMap given = propertyMap(tags);
        for (auto it = given.begin(); it != given.end(); ++it) merged.replace(it->first, it->second);
        tag->setProperties(merged);
        return;
    }
    FrameList existing = tag->frameList();
    for (auto it = existing.begin(); it != existing.end(); ++it) tag->removeFrame(*it, true);
    tag->setProperties(propertyMap(tags));
    if (tags.picture && tags.picture_byte_count > 0) {
        auto *picture = new AttachedPictureFrame();
        picture->setTextEncoding(String::UTF8);
        picture->setMimeType(utf8(tags.picture_mime_type));
        picture->setType(AttachedPictureFrame::FrontCover);
        picture->setDescription("cover");
        picture->setPicture(pictureBytes(tags));
        tag->addFrame(picture);
    }
    if (tags.chapter_count > 0) {
        TagLib::ByteVectorList children;
        for (size_t index = 0; index < tags.chapter_count; index++) {
            const nagi_tag_chapter &chapter = tags.chapters[index];
            char identifier[16];
            std::snprintf(identifier, sizeof identifier, "chp%zu", index + 1);
            ByteVector elementID(identifier);
            auto *title = new TextIdentificationFrame("TIT2", String::UTF8);
            title->setText(utf8(chapter.title));
            FrameList embedded;
            embedded.append(title);
            // Byte offsets are unknown for a VBR stream: 0xFFFFFFFF says "use the times" (ID3v2 chapter spec).
            tag->addFrame(new ChapterFrame(elementID, chapter.start_milliseconds, chapter.end_milliseconds,
                                           0xFFFFFFFF, 0xFFFFFFFF, embedded));
            children.append(elementID);
        }
        auto *contents = new TableOfContentsFrame(ByteVector("toc"), children);
        contents->setIsTopLevel(true);
        contents->setIsOrdered(true);
        tag->addFrame(contents);
    }
}

/// A FLAC picture block of the cover, owned by whoever it is handed to.
TagLib::FLAC::Picture *flacPicture(const nagi_tag_set &tags) {
    auto *picture = new TagLib::FLAC::Picture();
    picture->setType(TagLib::FLAC::Picture::FrontCover);
    picture->setMimeType(utf8(tags.picture_mime_type));
    picture->setDescription("cover");
    picture->setWidth(static_cast<int>(tags.picture_width));
    picture->setHeight(static_cast<int>(tags.picture_height));
    picture->setColorDepth(24);
    picture->setData(pictureBytes(tags));
    return picture;
}

/// Sets a Vorbis comment's fields (chapters are fields there), and the cover through `addPicture`.
void writeXiph(TagLib::Ogg::XiphComment *comment, const nagi_tag_set &tags, bool picturesInComment) {
    if (tags.replaces_everything) {
        comment->removeAllFields();
        if (picturesInComment) comment->removeAllPictures();
    }
    for (size_t index = 0; index < tags.field_count; index++) {
        String key = utf8(tags.fields[index].key);
        if (!tags.replaces_everything) comment->removeFields(key);
    }
    for (size_t index = 0; index < tags.field_count; index++) {
        comment->addField(utf8(tags.fields[index].key), utf8(tags.fields[index].value), false);
    }
    if (picturesInComment && tags.replaces_everything && tags.picture && tags.picture_byte_count > 0) {
        comment->addPicture(flacPicture(tags));
    }
}

/// A WAV file that can append a chunk: TagLib's WAV class writes only its INFO list and id3 chunk, and keeps
/// RIFF chunk writing to its subclasses.
class LabelledWAVFile : public TagLib::RIFF::WAV::File {
  public:
    using TagLib::RIFF::WAV::File::File;

    /// Appends `LIST adtl` with one `labl` per label (cue ID, then NUL-terminated text, padded to even).
    void appendCueLabels(const nagi_tag_cue_label *labels, size_t count) {
        ByteVector list("adtl");
        for (size_t index = 0; index < count; index++) {
            ByteVector text = utf8(labels[index].text).data(String::UTF8);
            text.append('\0');
            list.append(ByteVector("labl"));
            list.append(ByteVector::fromUInt(static_cast<unsigned int>(4 + text.size()), false));
            list.append(ByteVector::fromUInt(labels[index].cue_id, false));
            list.append(text);
            if (text.size() & 1) list.append('\0');
        }
        setChunkData("LIST", list, true);
    }
};

/// True, with the system's reason, when the file cannot be opened at all (gone, unreadable): TagLib would only
/// say it is not valid.
bool cannotOpen(const char *path, bool forWriting, char *error, size_t capacity) {
    std::FILE *probe = std::fopen(path, forWriting ? "rb+" : "rb");
    if (probe) {
        std::fclose(probe);
        return false;
    }
    fail(error, capacity, std::string("cannot open it: ") + std::strerror(errno));
    return true;
}

bool openFailed(const TagLib::File &file, nagi_tag_format format, char *error, size_t capacity) {
    if (!file.isValid()) {
        fail(error, capacity, std::string("TagLib cannot read it as ") + formatName(format));
        return true;
    }
    return false;
}

void visitProperties(const TagLib::PropertyMap &map, void *context, nagi_tag_visitor visit) {
    for (auto it = map.begin(); it != map.end(); ++it) {
        for (auto value = it->second.begin(); value != it->second.end(); ++value) {
            visit(context, it->first.toCString(true), value->toCString(true));
        }
    }
}

/// "HH:MM:SS.mmm", the Vorbis chapter extension's time.
std::string clockText(unsigned int milliseconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%02u:%02u:%02u.%03u", milliseconds / 3600000, milliseconds / 60000 % 60,
                  milliseconds / 1000 % 60, milliseconds % 1000);
    return text;
}

/// An ID3v2 tag's chapters as Vorbis chapter fields, and its covers.
void visitID3v2Extras(TagLib::ID3v2::Tag *tag, void *context, nagi_tag_visitor visit) {
    using namespace TagLib::ID3v2;
    const FrameList chapters = tag->frameList("CHAP");
    unsigned int number = 0;
    for (auto it = chapters.begin(); it != chapters.end(); ++it) {
        auto *chapter = dynamic_cast<ChapterFrame *>(*it);
        if (!chapter) continue;
        number++;
        char key[32];
        std::snprintf(key, sizeof key, "CHAPTER%03u", number);
        visit(context, key, clockText(chapter->startTime()).c_str());
        const FrameList titles = chapter->embeddedFrameList("TIT2");
        std::snprintf(key, sizeof key, "CHAPTER%03uNAME", number);
        if (!titles.isEmpty()) visit(context, key, titles.front()->toString().toCString(true));
    }
    const FrameList pictures = tag->frameList("APIC");
    for (auto it = pictures.begin(); it != pictures.end(); ++it) {
        auto *picture = dynamic_cast<AttachedPictureFrame *>(*it);
        if (!picture) continue;
        std::string text = picture->mimeType().to8Bit(true) + " " + std::to_string(picture->picture().size());
        visit(context, ":PICTURE", text.c_str());
    }
}

void visitFLACPictures(const TagLib::List<TagLib::FLAC::Picture *> &pictures, void *context, nagi_tag_visitor visit) {
    for (auto it = pictures.begin(); it != pictures.end(); ++it) {
        std::string text = (*it)->mimeType().to8Bit(true) + " " + std::to_string((*it)->data().size());
        visit(context, ":PICTURE", text.c_str());
    }
}

void visitLength(const TagLib::AudioProperties *properties, void *context, nagi_tag_visitor visit) {
    if (properties) visit(context, ":LENGTH_MILLISECONDS", std::to_string(properties->lengthInMilliseconds()).c_str());
}

/// Writes `tags` into an Ogg file, Vorbis or Opus (both keep them in one Xiph comment, pictures inside it): -1 when
/// it does not open (`error` says why), else 1 when it saved and 0 when it did not.
template <typename OggFile>
int writeOgg(const char *path, nagi_tag_format format, const nagi_tag_set &tags, char *error, size_t capacity) {
    OggFile file(path, false);
    if (openFailed(file, format, error, capacity)) return -1;
    writeXiph(file.tag(), tags, true);
    return file.save() ? 1 : 0;
}

/// Hands an Ogg file's tags, pictures and length to `visit` (Vorbis or Opus: as `writeOgg` keeps them): 0, or -1
/// when it does not open (`error` says why).
template <typename OggFile>
int readOgg(const char *path, nagi_tag_format format, void *context, nagi_tag_visitor visit, char *error, size_t capacity) {
    OggFile file(path, true);
    if (openFailed(file, format, error, capacity)) return -1;
    visitProperties(file.tag()->properties(), context, visit);
    visitFLACPictures(file.tag()->pictureList(), context, visit);
    visitLength(file.audioProperties(), context, visit);
    return 0;
}

} // namespace

extern "C" int nagi_tag_write(const char *path, nagi_tag_format format, const nagi_tag_set *tags, char *error,
                              size_t error_capacity) {
    configureOnce();
    if (!path || !tags) {
        fail(error, error_capacity, "no file or no tags given");
        return -1;
    }
    if (cannotOpen(path, true, error, error_capacity)) return -1;
    bool saved = false;
    switch (format) {
    case NAGI_TAG_FORMAT_MP3: {
        TagLib::MPEG::File file(path, false);
        if (openFailed(file, format, error, error_capacity)) return -1;
        writeID3v2(file.ID3v2Tag(true), *tags);
        saved = file.save(TagLib::MPEG::File::ID3v2, TagLib::File::StripOthers, TagLib::ID3v2::v4,
                          TagLib::File::DoNotDuplicate);
        break;
    }
    case NAGI_TAG_FORMAT_WAV: {
        LabelledWAVFile file(path, false);
        if (openFailed(file, format, error, error_capacity)) return -1;
        // The `id3 ` chunk only: libsndfile wrote the INFO list before the audio, where it reads it back.
        writeID3v2(file.ID3v2Tag(), *tags);
        saved = file.save(TagLib::RIFF::WAV::File::ID3v2, TagLib::File::StripNone, TagLib::ID3v2::v4);
        if (saved && tags->replaces_everything && tags->cue_label_count > 0) {
            file.appendCueLabels(tags->cue_labels, tags->cue_label_count);
        }
        break;
    }
    case NAGI_TAG_FORMAT_FLAC: {
        TagLib::FLAC::File file(path, false);
        if (openFailed(file, format, error, error_capacity)) return -1;
        writeXiph(file.xiphComment(true), *tags, false);
        if (tags->replaces_everything) {
            file.removePictures();
            if (tags->picture && tags->picture_byte_count > 0) file.addPicture(flacPicture(*tags));
        }
        saved = file.save();
        break;
    }
    case NAGI_TAG_FORMAT_OGG_VORBIS:
    case NAGI_TAG_FORMAT_OPUS: {
        int result = format == NAGI_TAG_FORMAT_OPUS
            ? writeOgg<TagLib::Ogg::Opus::File>(path, format, *tags, error, error_capacity)
            : writeOgg<TagLib::Ogg::Vorbis::File>(path, format, *tags, error, error_capacity);
        if (result < 0) return -1;
        saved = result > 0;
        break;
    }
    default:
        fail(error, error_capacity, "TagLib is not used for this format");
        return -1;
    }
    if (!saved) {
        fail(error, error_capacity, std::string("TagLib could not save the ") + formatName(format) + " tags");
        return -1;
    }
    return 0;
}

extern "C" int nagi_tag_read(const char *path, nagi_tag_format format, void *context, nagi_tag_visitor visit,
                             char *error, size_t error_capacity) {
    configureOnce();
    if (!path || !visit) {
        fail(error, error_capacity, "no file or no reader given");
        return -1;
    }
    if (cannotOpen(path, false, error, error_capacity)) return -1;
    switch (format) {
    case NAGI_TAG_FORMAT_MP3: {
        TagLib::MPEG::File file(path, true, TagLib::AudioProperties::Accurate);
        if (openFailed(file, format, error, error_capacity)) return -1;
        if (file.hasID3v2Tag()) {
            visitProperties(file.ID3v2Tag()->properties(), context, visit);
            visitID3v2Extras(file.ID3v2Tag(), context, visit);
        }
        visitLength(file.audioProperties(), context, visit);
        return 0;
    }
    case NAGI_TAG_FORMAT_WAV: {
        TagLib::RIFF::WAV::File file(path, true);
        if (openFailed(file, format, error, error_capacity)) return -1;
        if (file.hasID3v2Tag()) {
            visitProperties(file.ID3v2Tag()->properties(), context, visit);
            visitID3v2Extras(file.ID3v2Tag(), context, visit);
        } else if (file.hasInfoTag()) {
            visitProperties(file.InfoTag()->properties(), context, visit);
        }
        visitLength(file.audioProperties(), context, visit);
        return 0;
    }
    case NAGI_TAG_FORMAT_FLAC: {
        TagLib::FLAC::File file(path, true);
        if (openFailed(file, format, error, error_capacity)) return -1;
        if (file.hasXiphComment()) visitProperties(file.xiphComment()->properties(), context, visit);
        visitFLACPictures(file.pictureList(), context, visit);
        visitLength(file.audioProperties(), context, visit);
        return 0;
    }
    case NAGI_TAG_FORMAT_OGG_VORBIS:
        return readOgg<TagLib::Ogg::Vorbis::File>(path, format, context, visit, error, error_capacity);
    case NAGI_TAG_FORMAT_OPUS:
        return readOgg<TagLib::Ogg::Opus::File>(path, format, context, visit, error, error_capacity);
    }
    fail(error, error_capacity, "TagLib is not used for this format");
    return -1;
}
