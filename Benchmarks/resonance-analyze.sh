#!/usr/bin/env bash
# `nagi resonance analyze` of a 2-hour heart-rate record (about 8000 beats, Polar Sensor Logger's CSV) with
# resonance-steps breathed 50 minutes in: the wall time of --align auto (the cross-correlation over the whole
# record) and of a given --start, median of ROUNDS runs each. The issue's target: under a second.
# Usage: Benchmarks/resonance-analyze.sh [ROUNDS]   (default 5)
set -euo pipefail
source "$(dirname "$0")/common.sh"
rounds=${1:-5}
case "$rounds" in ''|*[!0-9]*|0) echo "usage: $0 [ROUNDS]" >&2; exit 64 ;; esac
needs python3
prepare

# The record: heart rate swinging with 14 breaths a minute, and with the session's paces (6.5 to 4.5 a
# minute, 2 minutes each, the swing largest at 5.5) from 3000 s; beat-to-beat noise from a fixed seed.
python3 - "$work/rr.txt" <<'PY'
import math, random, sys
random.seed(7)
steps = [6.5, 6, 5.5, 5, 4.5]
start = 3000.0
def heart_rate(t):
    s = t - start
    if 0 <= s < 600:
        rate = steps[int(s // 120)]
        amplitude = 2.5 + 5.5 / (1 + ((rate - 5.5) / 0.45) ** 2)
        return 66 - amplitude * math.cos(2 * math.pi * rate / 60 * (s % 120))
    return 70 + 1.5 * math.sin(2 * math.pi * 14 / 60 * t)
with open(sys.argv[1], "w") as out:
    out.write("Phone timestamp;RR-interval [ms]\n")
    t = 0.0
    while t < 7200:
        rr = round(60000 / (heart_rate(t + 0.9) + random.gauss(0, 1.5)))
        t += rr / 1000
        h, rest = divmod(7 * 3600 + t, 3600)
        m, sec = divmod(rest, 60)
        out.write("2026-12-02T%02d:%02d:%06.3f;%d\n" % (h, m, sec, rr))
PY
beats=$(($(wc -l < "$work/rr.txt") - 1))

for mode in "--align auto" "--start 3000"; do
    list=()
    for _ in $(seq 1 "$rounds"); do
        # shellcheck disable=SC2086
        list+=("$(seconds_of "$nagi" resonance analyze "$work/rr.txt" $mode)")
    done
    printf '%-13s %d beats (2 h): %s s   median %.3f s\n' "$mode" "$beats" "$(printf '%.3f / ' "${list[@]}" | sed 's| / $||')" "$(median "${list[@]}")"
done
# shellcheck disable=SC2086
"$nagi" resonance analyze "$work/rr.txt" --align auto | grep -E '^(session starts|best:)'
