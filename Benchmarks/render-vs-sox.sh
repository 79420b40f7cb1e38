#!/usr/bin/env bash
# Renders 10 minutes of the default session (48 kHz stereo 16-bit WAV) with nagi and, alternating in the
# same run, sox's bare sine of the same length; prints both medians and the ratio of their speeds.
# Usage: Benchmarks/render-vs-sox.sh [ROUNDS]   (default 7)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
for tool in sox soxi bc; do
    command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install -y sox bc)" >&2; exit 69; }
done
swift build -c release --product nagi >/dev/null
nagi=$(swift build -c release --show-bin-path)/nagi
work=$(mktemp -d "${TMPDIR:-/tmp}/nagi-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

seconds_of() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}
nagi_times=()
sox_times=()
for _ in $(seq 1 "$rounds"); do
    # The default session: 4-7-8 with the default soundscape and cues, 10 minutes.
    nagi_times+=("$(seconds_of "$nagi" render 4-7-8 --minutes 10 -o "$work/nagi.wav" --force --quiet)")
    sox_times+=("$(seconds_of sox -n -r 48000 -c 2 -b 16 "$work/sox.wav" synth 600 sine 220)")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }
nagi_median=$(median "${nagi_times[@]}")
sox_median=$(median "${sox_times[@]}")
nagi_audio=$(soxi -D "$work/nagi.wav")
nagi_speed=$(echo "$nagi_audio / $nagi_median" | bc -l)
sox_speed=$(echo "600 / $sox_median" | bc -l)
printf 'rounds: %d (alternating)\n' "$rounds"
printf 'nagi render 4-7-8 --minutes 10:  median %.3f s for %.0f s of audio = %.0fx real time\n' "$nagi_median" "$nagi_audio" "$nagi_speed"
printf 'sox -n ... synth 600 sine 220:   median %.3f s for 600 s of audio = %.0fx real time\n' "$sox_median" "$sox_speed"
printf 'nagi / sox speed ratio: %.2f (target: at least 5)\n' "$(echo "$nagi_speed / $sox_speed" | bc -l)"
