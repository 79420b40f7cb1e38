#!/usr/bin/env bash
# Builds the NagiKit example package (Examples/NagiKitExamples, which depends on nagi by path, as an app
# would) and checks what its programs make against the nagi command line, sample for sample:
#   RenderWithBed BED OUT.flac  ==  nagi render 4-7-8 --cycles 2 --bed BED --cues voice --loudness -16 -o OUT.flac
#   SeekPlanar OUT.f32          ==  frames 30 s to 40 s of `nagi render box --cycles 3`, as two planes
#   ExportCourse COURSE DIR     ==  nagi course export COURSE -o DIR --format flac (the same files, the same samples)
#   PlayIntoOwnDevice OUT through  ==  nagi render wim-hof --cycles 2 --format raw --bits float (a live session into
#                                      an app's own device); with `skip`, one stage shorter and one skip counted
# The README's library example is the first program's main.swift, word for word (checked here too).
# Needs sox and python3. Usage: scripts/check-examples.sh [debug|release]
set -euo pipefail
cd "$(dirname "$0")/.."
configuration="${1:-debug}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The README's ```swift block under "Using nagi as a library" is the example's source.
python3 - README.md Examples/NagiKitExamples/Sources/RenderWithBed/main.swift <<'PY'
import sys
readme = open(sys.argv[1]).read()
section = readme.split("## Using nagi as a library", 1)[1]
block = section.split("```swift\n", 1)[1].split("```", 1)[0]
source = open(sys.argv[2]).read()
if block != source:
    sys.exit("README's library example differs from Examples/NagiKitExamples/Sources/RenderWithBed/main.swift")
PY

swift build -c "$configuration" --product nagi >/dev/null
nagi="$(swift build -c "$configuration" --show-bin-path)/nagi"
swift build -c "$configuration" --package-path Examples/NagiKitExamples >/dev/null
examples="$(swift build -c "$configuration" --package-path Examples/NagiKitExamples --show-bin-path)"

# A 9-second stereo bed at 44.1 kHz: resampled, looped and measured on the way.
sox -n -r 44100 -c 2 -b 16 "$work/bed.flac" synth 9 pinknoise vol 0.4 fade 0.2 9 0.2
"$examples/RenderWithBed" "$work/bed.flac" "$work/library.flac"
"$nagi" render 4-7-8 --cycles 2 --bed "$work/bed.flac" --cues voice --loudness -16 -o "$work/cli.flac" --quiet
sox "$work/library.flac" -t raw "$work/library.raw"
sox "$work/cli.flac" -t raw "$work/cli.raw"
cmp "$work/library.raw" "$work/cli.raw"
echo "RenderWithBed: $(stat -c %s "$work/library.raw") bytes of samples, identical to nagi render's"

"$examples/SeekPlanar" "$work/planes.f32"
"$nagi" render box --cycles 3 --format raw --bits float -o "$work/box.raw" --quiet
python3 - "$work/planes.f32" "$work/box.raw" <<'PY'
import array, sys
planes = array.array("f", open(sys.argv[1], "rb").read())
whole = array.array("f", open(sys.argv[2], "rb").read())
start, count = 30 * 48000, 10 * 48000
left, right = planes[:count], planes[count:]
if left != whole[2 * start:2 * (start + count):2] or right != whole[2 * start + 1:2 * (start + count):2]:
    sys.exit("SeekPlanar's planes differ from nagi render's frames 30 s to 40 s")
if max(abs(x) for x in left) < 0.01:
    sys.exit("SeekPlanar's planes are silent")
print(f"SeekPlanar: {count} frames after a seek to frame {start}, identical to nagi render's")
PY

# A course exported through NagiKit alone, against the command line's export of the same course file.
cat > "$work/course.json" <<'JSON'
{"name": "two-days", "title": "Two days", "lessons": [{"title": "Day 1", "pattern": "box", "cycles": 2}, {"title": "Day 2", "pattern": "4-7-8", "cycles": 1, "cues": "voice"}]}
JSON
"$examples/ExportCourse" "$work/course.json" "$work/library-album" >/dev/null
"$nagi" course export "$work/course.json" -o "$work/cli-album" --format flac --quiet
[ "$(ls "$work/library-album")" = "$(ls "$work/cli-album")" ] || { echo "ExportCourse wrote other files than nagi course export"; exit 1; }
for track in "$work/cli-album"/*.flac; do
    name="$(basename "$track")"
    sox "$work/library-album/$name" -t raw "$work/library-track.raw"
    sox "$track" -t raw "$work/cli-track.raw"
    cmp "$work/library-track.raw" "$work/cli-track.raw"
done
cmp "$work/library-album/two-days.m3u8" "$work/cli-album/two-days.m3u8"
echo "ExportCourse: $(ls "$work/cli-album" | wc -l) files, the tracks' samples and the playlist identical to nagi course export's"

# A live session into the app's own device: played through, the render's samples; with a skip, one stage shorter.
"$examples/PlayIntoOwnDevice" "$work/live.f32" through >/dev/null
"$nagi" render wim-hof --cycles 2 --format raw --bits float -o "$work/wim-hof.raw" --quiet
cmp "$work/live.f32" "$work/wim-hof.raw"
skipped="$("$examples/PlayIntoOwnDevice" "$work/skipped.f32" skip)"
case "$skipped" in *"1 skip(s)"*) ;; *) echo "PlayIntoOwnDevice skip: $skipped"; exit 1 ;; esac
[ "$(stat -c %s "$work/skipped.f32")" -lt "$(stat -c %s "$work/live.f32")" ] || { echo "the skipped session is not shorter"; exit 1; }
echo "PlayIntoOwnDevice: played through, identical to nagi render's samples; with a skip, one stage shorter"
