#!/usr/bin/env bash
# `nagi course export` of a course (beginner-21 by default) in FLAC and 16-bit WAV with --jobs 1 and 2:
# the wall time of each round, the speed-up, the folder's size per format, and the time of a second run
# that finds every track already exported.
# Usage: Benchmarks/course-export.sh [ROUNDS] [COURSE]   (default 3 rounds, beginner-21)
set -euo pipefail
source "$(dirname "$0")/common.sh"
rounds=${1:-3}
course=${2:-beginner-21}
case "$rounds" in ''|*[!0-9]*|0) echo "usage: $0 [ROUNDS] [COURSE]" >&2; exit 64 ;; esac
prepare

for format in flac wav; do
    declare -A times=()
    for jobs in 1 2; do
        list=()
        for _ in $(seq 1 "$rounds"); do
            rm -rf "$work/out"
            list+=("$(seconds_of "$nagi" course export "$course" -o "$work/out" --format "$format" --jobs "$jobs" --quiet)")
        done
        times[$jobs]="${list[*]}"
        medians[$jobs]=$(median "${list[@]}")
    done
    size=$(du -sb "$work/out" | cut -f1)
    again=$(seconds_of "$nagi" course export "$course" -o "$work/out" --format "$format" --quiet)
    printf '%-5s --jobs 1: %s s   --jobs 2: %s s   speed-up %.2fx (medians)   %d MiB   second run %.2f s\n' \
        "$format" "$(printf '%.2f / ' ${times[1]} | sed 's| / $||')" "$(printf '%.2f / ' ${times[2]} | sed 's| / $||')" \
        "$(echo "${medians[1]} / ${medians[2]}" | bc -l)" "$((size / 1048576))" "$again"
    rm -rf "$work/out"
done
