#!/usr/bin/env bash
# Runs the test suite under ThreadSanitizer or AddressSanitizer in its own build folder.
# Usage: scripts/sanitizers.sh thread|address
# The paced PulseAudio tests, the tmux view test and the ffmpeg loudness test are skipped: they measure
# real time, which the sanitizers slow several-fold.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-thread}
case "$kind" in thread|address) ;; *) echo "usage: $0 thread|address" >&2; exit 64 ;; esac
# The test runner itself leaks in Foundation's Process and in XCTest; LeakSanitizer would fail the run
# on those. The nagi processes the tests start get a clean environment, so they keep leak detection on
# (and a report there would break their exit codes and one-line stderr checks).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
# The long-session test skips its peak-memory comparison under AddressSanitizer, whose quarantine keeps freed
# memory resident.
export NAGI_SANITIZER="$kind"
# Inside this checkout's .build, so two checkouts never share a build folder.
log=".build/sanitizer-$kind.log"
mkdir -p .build
swift test --sanitize="$kind" --scratch-path ".build/sanitizer-$kind" \
    --skip 'PacedPlayback|TerminalView|LoudnessTests' 2>&1 | tee "$log"
echo "sanitizer reports: $(grep -c -E 'WARNING: ThreadSanitizer|ERROR: AddressSanitizer' "$log" || true)"
