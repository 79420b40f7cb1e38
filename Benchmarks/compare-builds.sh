#!/usr/bin/env bash
# Times the render-vs-sox cases (10 minutes of 4-7-8: default, guided, --loudness -16, over a 5-minute FLAC bed)
# with this tree's release build and another nagi binary, alternating in the same run, and prints each case's
# medians and the ratio (other / this: above 1 means this build is faster). For before/after figures of a change:
#   git worktree add /tmp/base BASE && (cd /tmp/base && swift build -c release --product nagi)
#   Benchmarks/compare-builds.sh /tmp/base/.build/release/nagi [ROUNDS]
set -euo pipefail
source "$(dirname "$0")/common.sh"
other="${1:?usage: $0 OTHER_NAGI [ROUNDS]}"
rounds=${2:-5}
needs sox
prepare
sox -n -r 44100 -c 2 -b 16 "$work/bed.flac" synth 300 pinknoise vol 0.4 2>/dev/null
cases=("default|" "guided|--cues both --count voice" "loudness|--loudness -16" "bed|--bed $work/bed.flac")
declare -A this_times other_times
for _ in $(seq 1 "$rounds"); do
    for entry in "${cases[@]}"; do
        name="${entry%%|*}"
        read -r -a extra <<< "${entry#*|}"
        this_times[$name]+=" $(seconds_of "$nagi" render 4-7-8 --minutes 10 "${extra[@]}" -o "$work/this.wav" --force --quiet)"
        other_times[$name]+=" $(seconds_of "$other" render 4-7-8 --minutes 10 "${extra[@]}" -o "$work/other.wav" --force --quiet)"
    done
done
printf '%-9s %10s %10s %8s\n' case "this (s)" "other (s)" ratio
for entry in "${cases[@]}"; do
    name="${entry%%|*}"
    # shellcheck disable=SC2086
    this_median=$(median ${this_times[$name]})
    # shellcheck disable=SC2086
    other_median=$(median ${other_times[$name]})
    printf '%-9s %10.3f %10.3f %8.2f\n' "$name" "$this_median" "$other_median" "$(echo "$other_median / $this_median" | bc -l)"
done
