#!/usr/bin/env bash
# Prints the measured figures of the docs' tables, one "KEY: VALUE" line each, as a user measures them: nagi's output read by
# ffmpeg's ebur128 filter (integrated loudness and true peak, peak=true), `nagi course list`, and the size of
# a course export. ReadmeFiguresTests runs the quick part and compares the tables in README.md, docs/loudness-and-beds.md
# and docs/courses.md with it.
#
# Usage: scripts/readme-figures.sh [--check | --long]
#   default (about 20 s in release, a minute in debug): the soundscape table, mono at --loudness -16, the voice
#   guide's loudness, the bed alone under box, the course lengths, and the short check;
#   --long adds the size of beginner-21 exported as FLAC and as WAV (minutes): `scripts/readme-figures.sh --long >
#   docs/figures.txt` is how the committed figures are made, and ReadmeFiguresTests compares the tables with them;
#   --check prints only the short check (two cycles of 4-7-8, seconds), which the test runs to see that
#   docs/figures.txt still describes this build's sound.
# NAGI=path/to/nagi picks the binary (default: a release build, built here).
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in ffmpeg sox; do
    command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install -y $tool)" >&2; exit 69; }
done
if [ -z "${NAGI:-}" ]; then
    swift build -c release --product nagi >/dev/null
    NAGI="$(swift build -c release --show-bin-path)/nagi"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/nagi-figures.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Each run's own presets only: a user's folder must not change the figures.
export XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state"

# measure FILE: "INTEGRATED_LUFS TRUE_PEAK_DBTP" from ffmpeg's ebur128 summary.
measure() {
    ffmpeg -nostats -hide_banner -i "$1" -af ebur128=peak=true -f null - 2>&1 | awk '
        /Integrated loudness:/ { section = "i" } /True peak:/ { section = "p" }
        section == "i" && $1 == "I:" { integrated = $2 } section == "p" && $1 == "Peak:" { peak = $2 }
        END { printf "%.1f %.1f\n", integrated, peak }'
}

# check: the short cases the test measures itself, plain and over a bed (so that a change to the output stage
# or to the bed's handling shows).
check() {
    "$NAGI" render 4-7-8 --cycles 2 -o "$work/check.wav" --quiet
    read -r integrated peak < <(measure "$work/check.wav")
    echo "check 4-7-8 2 cycles: $integrated LUFS, $peak dBTP"
    sox -R -n -r 44100 -c 2 -b 16 "$work/check-bed.wav" synth 20 pinknoise vol 0.5
    "$NAGI" render 4-7-8 --cycles 2 --bed "$work/check-bed.wav" --bed-level 0 -o "$work/check-bedded.wav" --quiet
    read -r integrated peak < <(measure "$work/check-bedded.wav")
    echo "check 4-7-8 2 cycles over a bed: $integrated LUFS, $peak dBTP"
}
if [ "${1:-}" = "--check" ]; then
    check
    exit 0
fi
check

for soundscape in horizon night dusk rain; do
    "$NAGI" render 4-7-8 --soundscape "$soundscape" -o "$work/$soundscape.wav" --quiet
    read -r integrated peak < <(measure "$work/$soundscape.wav")
    echo "soundscape $soundscape: $integrated LUFS, $peak dBTP"
done

"$NAGI" render 4-7-8 --channels 1 --loudness -16 -o "$work/mono.wav" --quiet 2>/dev/null
read -r integrated peak < <(measure "$work/mono.wav")
echo "mono --loudness -16: $integrated LUFS, $peak dBTP"

"$NAGI" render 4-7-8 --cues both --count voice -o "$work/voice.wav" --quiet
read -r integrated peak < <(measure "$work/voice.wav")
echo "cues both count voice: $integrated LUFS, $peak dBTP"

# The bed alone in a render of box: the render with a pink-noise bed minus the same render without it.
sox -R -n -r 44100 -c 2 -b 16 "$work/pink.wav" synth 60 pinknoise vol 0.5
"$NAGI" render box --bed "$work/pink.wav" -o "$work/bedded.wav" --quiet
"$NAGI" render box -o "$work/plain.wav" --quiet
sox -m -v 1 "$work/bedded.wav" -v -1 "$work/plain.wav" "$work/bed-alone.wav"
read -r integrated peak < <(measure "$work/bed-alone.wav")
echo "bed alone under box: $integrated LUFS"

"$NAGI" course list | awk 'NR > 1 { print "course " $1 ": " $3 }'

if [ "${1:-}" = "--long" ]; then
    for format in flac wav; do
        "$NAGI" course export beginner-21 -o "$work/export-$format" --format "$format" --quiet
        size=$(du -sb "$work/export-$format" | cut -f1)
        echo "beginner-21 $format: $((size / 1048576)) MiB"
        rm -rf "$work/export-$format"
    done
fi
