#!/usr/bin/env bash
# Builds the NagiKit example package (Examples/NagiKitExamples, which depends on nagi by path, as an app
# would) and checks what its programs make against the nagi command line, sample for sample:
#   RenderWithBed BED OUT.flac  ==  nagi render 4-7-8 --cycles 2 --bed BED --cues voice --loudness -16 -o OUT.flac
#   SeekPlanar OUT.f32          ==  frames 30 s to 40 s of `nagi render box --cycles 3`, as two planes
#   ExportCourse COURSE DIR     ==  nagi course export COURSE -o DIR --format flac (the same files, the same samples)
#   PlayIntoOwnDevice OUT through  ==  nagi render wim-hof --cycles 2 --format raw --bits float (a live session into
#                                      an app's own device); with `skip`, one stage shorter and one skip counted
# docs/library.md's example is the first program's main.swift, word for word, and the README's its lines in order
# (checked here too).
# Needs sox and python3. Usage: scripts/check-examples.sh [debug|release]
set -euo pipefail
cd "$(dirname "$0")/.."
configuration="${1:-debug}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# docs/library.md's ```swift block under "the whole example" is the example's source, word for word; the README's
# shortened one is its lines in order (each stripped of its indent), and both name the package as Package.swift does.
python3 - README.md docs/library.md Examples/NagiKitExamples/Sources/RenderWithBed/main.swift Examples/NagiKitExamples/Package.swift <<'PY'
import sys
readme, library, source, manifest = (open(path).read() for path in sys.argv[1:5])
whole = library.split("## Using NagiKit from your own package: the whole example", 1)[1].split("```swift\n", 1)[1].split("```", 1)[0]
if whole != source:
    sys.exit("docs/library.md's example differs from Examples/NagiKitExamples/Sources/RenderWithBed/main.swift")
blocks = readme.split("## As a library: NagiKit", 1)[1].split("\n## ", 1)[0].split("```swift\n")[1:]
if len(blocks) != 2:
    sys.exit("README's library section: want the dependency and the program, two swift blocks")
dependency, program = (block.split("```", 1)[0] for block in blocks)
if '.package(name: "nagi", path:' not in dependency or '.package(name: "nagi", path:' not in manifest:
    sys.exit('README and Examples/NagiKitExamples/Package.swift must both say .package(name: "nagi", path: ...)')
lines = iter(line.strip() for line in source.split("\n"))
for wanted in (line.strip() for line in program.split("\n") if line.strip()):
    if not any(line == wanted for line in lines):
        sys.exit("README's library example has a line not in main.swift (or out of order): " + wanted)
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
