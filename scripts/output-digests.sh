#!/usr/bin/env bash
# The MD5 of the samples (and of the file) of a fixed set of renders, one line each, so that a refactoring can show
# that every output byte is unchanged: run it with the binary before and after and compare the two listings.
#
#   scripts/output-digests.sh [NAGI]          (default .build/debug/nagi)
#
# The set covers the tone and chimes, the spoken guide and counting, open holds (Wim Hof), a countdown and end bell,
# a bed resampled, looped and levelled to a loudness target, a binaural beat, FLAC, 24-bit and float WAV, raw PCM
# to a pipe, several threads, and a course's tracks. Samples are compared as decoded by sox (a float WAV's PEAK chunk
# carries a time stamp, so its file digest differs run to run; its samples do not). Needs sox.
set -euo pipefail
nagi="${1:-.build/debug/nagi}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" XDG_DATA_HOME="$work/data"

# A 9-second stereo bed at 44.1 kHz of two sines, undithered (-D) so it is the same every run; resampled and
# looped by the render.
sox -D -n -r 44100 -c 2 -b 16 "$work/bed.flac" synth 9 sine 220 sine 331 vol 0.4 fade 0.2 9 0.2

render() {
    local name="$1"; shift
    "$nagi" render "$@" -o "$work/$name" --quiet
}
render a.wav 4-7-8 --cycles 3
render b.flac box --cycles 2 --cues voice --count voice
render c.wav wim-hof --cycles 1
render d.wav coherent --minutes 2 --bed "$work/bed.flac" --loudness -16 --bits float
render e.wav resonance-steps --minutes 3 --countdown 5 --end-bell --bits 24
render f.flac 4-7-8 --cycles 4 --beat 10:6 --threads 2
"$nagi" render box --cycles 2 --format raw --bits float -o - --quiet > "$work/g.raw"
cat > "$work/two.json" <<'JSON'
{"name": "two", "title": "Two days", "lessons": [
  {"title": "Day 1", "pattern": "coherent", "minutes": 1, "cues": "voice"},
  {"title": "Day 2", "pattern": "4-7-8", "minutes": 1, "soundscape": "night"}]}
JSON
"$nagi" course export "$work/two.json" -o "$work/course" --format flac --quiet >/dev/null

for file in "$work"/[a-f].wav "$work"/[a-f].flac "$work"/course/*.flac; do
    [ -e "$file" ] || continue
    samples="$(sox "$file" -t raw - | md5sum | cut -c1-32)"
    whole="$(md5sum < "$file" | cut -c1-32)"
    echo "${file#"$work"/} samples $samples file $whole"
done
echo "g.raw samples $(md5sum < "$work/g.raw" | cut -c1-32)"
