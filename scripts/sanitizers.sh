#!/usr/bin/env bash
# Runs the test suite under ThreadSanitizer or AddressSanitizer in its own build folder.
# Usage: scripts/sanitizers.sh thread|address
# The paced PulseAudio tests, the tmux view test and the ffmpeg loudness test are skipped: they measure
# real time, which the sanitizers slow several-fold.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-thread}
case "$kind" in thread|address) ;; *) echo "usage: $0 thread|address" >&2; exit 64 ;; esac
swift test --sanitize="$kind" --scratch-path "${TMPDIR:-/tmp}/nagi-$kind-build" \
    --skip 'PacedPlayback|TerminalView|LoudnessTests' 2>&1 | tee "${TMPDIR:-/tmp}/nagi-$kind.log"
echo "sanitizer reports: $(grep -c -E 'WARNING: ThreadSanitizer|ERROR: AddressSanitizer' "${TMPDIR:-/tmp}/nagi-$kind.log" || true)"
