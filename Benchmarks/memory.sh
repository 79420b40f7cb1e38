#!/usr/bin/env bash
# Peak resident memory (`/usr/bin/time -f %M`) of the three runs docs/performance.md reports: `nagi --version`, a 3-hour FLAC
# render of 4-7-8, and a 3-hour WAV render on the rain soundscape (its noise loops are the largest tables).
# Usage: Benchmarks/memory.sh [HOURS]   (default 3)
set -euo pipefail
source "$(dirname "$0")/common.sh"
hours=${1:-3}
case "$hours" in ''|*[!0-9]*|0) echo "usage: $0 [HOURS]" >&2; exit 64 ;; esac
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install -y time)" >&2; exit 69; }
prepare

# peak_of LABEL COMMAND...: prints LABEL and COMMAND's peak resident size in MB.
peak_of() {
    local label="$1"
    shift
    /usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
    printf '%-40s peak RSS %5.1f MB\n' "$label" "$(echo "$(cat "$work/rss") / 1000" | bc -l)"
    rm -f "$work"/*.flac "$work"/*.wav
}
minutes=$((hours * 60))
peak_of "nagi --version" "$nagi" --version
peak_of "render 4-7-8, ${hours} h, FLAC" "$nagi" render 4-7-8 --minutes "$minutes" -o "$work/long.flac" --quiet
peak_of "render 4-7-8 --soundscape rain, ${hours} h, WAV" "$nagi" render 4-7-8 --minutes "$minutes" --soundscape rain -o "$work/long.wav" --quiet
