#!/usr/bin/env bash
# `nagi serve` against the command line doing the same work (issue 43's figures), each side in the same go:
# - streaming: seconds to the first 64 KiB of a 60-minute WAV through the API (a fresh server each round, so the
#   session's preparation is counted), against the whole render of that WAV into a pipe (`nagi render -o -`);
#   their ratio (target under 0.25, and under 0.3 s);
# - a dropped client: the server's CPU seconds in the 2 s after a client drops a 170-minute download part way
#   (target under 0.3 s), beside 1 s while it downloads at full speed (what a render that went on would cost);
# - 8 concurrent 10-minute FLAC downloads from a server with --jobs 2, against 8 `nagi render` of the same sessions
#   2 at a time: wall seconds and their ratio (target at most 1.2), every download's samples equal to its render's
#   (decoded by flac), and the server's peak resident memory (VmHWM from /proc, target at most 200 MB).
# Every round's sessions differ (their seed), so no round takes a soundtrack the server prepared in an earlier one.
# Usage: Benchmarks/serve.sh [ROUNDS] [SECTION]   (default 3 rounds, every section; SECTION 1, 2 or 3 runs that alone)
set -euo pipefail
source "$(dirname "$0")/common.sh"
rounds=${1:-3}
section=${2:-all}
case "$rounds" in ''|*[!0-9]*|0) echo "usage: $0 [ROUNDS] [SECTION]" >&2; exit 64 ;; esac
case "$section" in all|1|2|3) ;; *) echo "usage: $0 [ROUNDS] [SECTION]" >&2; exit 64 ;; esac
# runs SECTION: whether the section numbered SECTION is to run.
runs() { [ "$section" = all ] || [ "$section" = "$1" ]; }
needs curl flac
prepare
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
echo "load before: $(uptime | sed 's/.*load average: //')"

# start_server ARGUMENTS...: `nagi serve` on a free loopback port without a token (this machine only, for the benchmark), in
# the background; sets $server and $url.
start_server() {
    rm -f "$work/serve.out"
    "$nagi" serve --listen 127.0.0.1:0 --no-token "$@" >"$work/serve.out" 2>"$work/serve.err" &
    server=$!
    for _ in $(seq 1 400); do [ -s "$work/serve.out" ] && break; sleep 0.025; done
    url=$(head -n 1 "$work/serve.out")
    url=${url%/}
    [ -n "$url" ] || { echo "nagi serve printed no URL: $(cat "$work/serve.err")" >&2; exit 1; }
}

# stop_server: SIGTERM, and its exit status checked (0).
stop_server() {
    kill -TERM "$server"
    wait "$server" || { echo "nagi serve exited $? on SIGTERM" >&2; exit 1; }
    server=""
}

# cpu_of PID: the CPU seconds (user and system, every thread) PID has used, from /proc/PID/stat.
cpu_of() { awk -v ticks="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.3f\n", ($12 + $13) / ticks }' "/proc/$1/stat"; }

# seconds ARGS...: `seconds_of` with the figure printed to 3 places.
seconds() { printf '%.3f' "$(seconds_of "$@")"; }

# 1. The first 64 KiB of an hour's WAV, against its whole render into a pipe.
if runs 1; then
    first=()
    whole=()
    for round in $(seq 1 "$rounds"); do
        start_server
        first+=("$(seconds bash -c "curl -sSf '$url/api/render.wav?pattern=4-7-8&minutes=60&seed=$round' | head -c 65536 >/dev/null")")
        stop_server
        whole+=("$(seconds bash -c "set -o pipefail; '$nagi' render 4-7-8 --minutes 60 --seed $round -o - --format wav --quiet | cat >/dev/null")")
    done
    first_median=$(median "${first[@]}")
    whole_median=$(median "${whole[@]}")
    printf 'first 64 KiB of a 60-minute WAV: %s s (%s)   whole render to a pipe: %s s (%s)   ratio %.3f (medians)\n' \
        "$first_median" "${first[*]}" "$whole_median" "${whole[*]}" "$(echo "$first_median / $whole_median" | bc -l)"
fi

# 2. A dropped client: the server's CPU while a client downloads a 170-minute WAV at full speed (1 s), and in the 2 s
# after the client is gone.
if runs 2; then
    start_server --jobs 2
    downloading=()
    dropped=()
    for round in $(seq 1 "$rounds"); do
        curl -sSf -o /dev/null "$url/api/render.wav?pattern=box&minutes=170&soundscape=rain&seed=$round" &
        client=$!
        sleep 0.5
        before=$(cpu_of "$server"); sleep 1; after=$(cpu_of "$server")
        downloading+=("$(echo "$after - $before" | bc -l)")
        kill "$client" 2>/dev/null || { echo "round $round: the download ended before it was dropped" >&2; exit 1; }
        wait "$client" 2>/dev/null || true
        before=$(cpu_of "$server"); sleep 2; after=$(cpu_of "$server")
        dropped+=("$(echo "$after - $before" | bc -l)")
    done
    stop_server
    printf 'server CPU in 1 s while a client downloads at full speed: %s s (%s)   in the 2 s after it drops the download: %s s (%s) (medians)\n' \
        "$(median "${downloading[@]}")" "${downloading[*]}" "$(median "${dropped[@]}")" "${dropped[*]}"
fi

# 3. 8 concurrent 10-minute FLAC downloads against 8 renders by the command line, 2 at a time.
if runs 3; then
    patterns=(4-7-8 box coherent triangle extended-exhale sigh resonant-6bpm longer-exhale-ramp)
    start_server --jobs 2
    served=()
    rendered=()
    mismatches=0
    for round in $(seq 1 "$rounds"); do
        echo 'pids=()' >"$work/downloads.sh"
        : >"$work/renders.txt"
        for index in "${!patterns[@]}"; do
            seed=$((round * 100 + index))
            echo "curl -sSf -o '$work/api-$index.flac' '$url/api/render.flac?pattern=${patterns[$index]}&minutes=10&seed=$seed' & pids+=(\$!)" >>"$work/downloads.sh"
            echo "${patterns[$index]} $seed $work/cli-$index.flac" >>"$work/renders.txt"
        done
        echo 'for pid in "${pids[@]}"; do wait "$pid" || exit 1; done' >>"$work/downloads.sh"
        served+=("$(seconds bash "$work/downloads.sh")")
        rendered+=("$(seconds bash -c "xargs -P 2 -L 1 sh -c '\"$nagi\" render \"\$0\" --minutes 10 --seed \"\$1\" -o \"\$2\" --quiet --force' <'$work/renders.txt'")")
        for index in "${!patterns[@]}"; do
            a=$(flac -s -d -c --force-raw-format --endian=little --sign=signed "$work/api-$index.flac" 2>/dev/null | md5sum)
            b=$(flac -s -d -c --force-raw-format --endian=little --sign=signed "$work/cli-$index.flac" 2>/dev/null | md5sum)
            [ "$a" = "$b" ] || { echo "round $round: ${patterns[$index]}'s download differs from its render" >&2; mismatches=$((mismatches + 1)); }
        done
        rm -f "$work"/api-*.flac "$work"/cli-*.flac
    done
    peak=$(awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$server/status")
    stop_server
    served_median=$(median "${served[@]}")
    rendered_median=$(median "${rendered[@]}")
    printf '8 concurrent 10-minute FLAC downloads (--jobs 2): %s s (%s)   8 nagi render, 2 at a time: %s s (%s)   ratio %.3f (medians)\n' \
        "$served_median" "${served[*]}" "$rendered_median" "${rendered[*]}" "$(echo "$served_median / $rendered_median" | bc -l)"
    printf 'downloads equal to their renders: %d of %d   server peak memory (VmHWM): %s MB\n' \
        "$((rounds * ${#patterns[@]} - mismatches))" "$((rounds * ${#patterns[@]}))" "$peak"
fi

echo "load after: $(uptime | sed 's/.*load average: //')"
[ "${mismatches:-0}" -eq 0 ]
