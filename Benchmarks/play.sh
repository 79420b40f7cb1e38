#!/usr/bin/env bash
# The live path's two figures:
# - launch latency: from nagi's exec to its first write of audio through ALSA's `file` plugin, read from
#   `strace -ttt` (so measured under strace, which slows the start a little);
# - CPU while playing: user + system time of `nagi play` during SECONDS of a paced PulseAudio null sink (a
#   private daemon, as the tests start it), from /proc/PID/stat, as a share of one core.
# Usage: Benchmarks/play.sh [SECONDS]   (default 20)
set -euo pipefail
source "$(dirname "$0")/common.sh"
seconds=${1:-20}
case "$seconds" in ''|*[!0-9]*|0) echo "usage: $0 [SECONDS]" >&2; exit 64 ;; esac
needs strace pulseaudio
prepare

# Launch latency, median of 5.
latencies=()
for _ in 1 2 3 4 5; do
    rm -f "$work/capture.raw" "$work/strace.log"
    strace -f -ttt -e trace=execve,openat,write -o "$work/strace.log" \
        "$nagi" play 1-1 --cycles 1 --device "file:'$work/capture.raw',raw" --quiet >/dev/null 2>&1 || true
    latencies+=("$(awk '
        NR == 1 { start = $2 }
        /openat\(.*capture\.raw/ { n = split($0, parts, "= "); fd = parts[n] + 0 }
        fd && $3 ~ "^write\\(" fd "," { printf "%.1f\n", ($2 - start) * 1000; exit }
    ' "$work/strace.log")")
done
printf 'launch to the first frame written through ALSA (under strace): median %s ms (%s)\n' \
    "$(median "${latencies[@]}")" "${latencies[*]}"

# CPU while playing on a paced sink.
runtime="$work/pulse"
mkdir -p "$runtime"
HOME="$runtime" XDG_RUNTIME_DIR="$runtime" pulseaudio -n --daemonize=no --exit-idle-time=-1 --use-pid-file=no \
    -L "module-null-sink sink_name=nagi_null" -L "module-native-protocol-unix socket=$runtime/native auth-anonymous=1" \
    >/dev/null 2>&1 &
daemon=$!
trap 'kill "$daemon" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do [ -S "$runtime/native" ] && break; sleep 0.1; done
[ -S "$runtime/native" ] || { echo "PulseAudio did not start" >&2; exit 69; }
PULSE_SERVER="unix:$runtime/native" XDG_RUNTIME_DIR="$runtime" \
    "$nagi" play 4-7-8 --minutes 10 --device pulse --quiet >/dev/null 2>&1 &
player=$!
sleep "$seconds"
ticks=$(awk '{print $14 + $15}' "/proc/$player/stat")
kill -TERM "$player"
wait "$player" || true
hertz=$(getconf CLK_TCK)
printf 'CPU while playing on a paced PulseAudio null sink: %.0f ms over %d s = %.2f %% of one core\n' \
    "$(echo "$ticks * 1000 / $hertz" | bc -l)" "$seconds" "$(echo "$ticks * 100 / $hertz / $seconds" | bc -l)"
