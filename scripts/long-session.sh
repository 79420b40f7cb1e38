#!/usr/bin/env bash
# Renders a long session (12 hours by default) at 48 kHz in release and checks it end to end:
# cue onsets on their frames at every phase start, no NaN or Inf, peak ≤ −1 dBFS, never silent, the
# FLAC file equal to the render at its first and last phase starts, peak memory flat against a run a
# tenth as long, and synthesis speed in each twelfth of the session.
# Usage: scripts/long-session.sh [HOURS]   (CI runs the same test for 10 minutes in debug.)
# Needs about 300 MB of temporary disk per hour of audio; the files are removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
hours=${1:-12}
case "$hours" in ''|*[!0-9]*) echo "usage: $0 [HOURS]" >&2; exit 64 ;; esac
log="${TMPDIR:-/tmp}/nagi-long-session.log"
# Its own build folder: release with testing enabled (the test target uses @testable imports).
NAGI_LONG_SESSION_MINUTES=$((hours * 60)) \
    swift test -c release -Xswiftc -enable-testing --scratch-path "${TMPDIR:-/tmp}/nagi-long-session-build" \
    --filter 'LongSessionTests' 2>&1 | tee "$log"
echo
grep 'long-session:' "$log" | sed 's/^.*long-session: /  /'
grep -q 'Test run with 1 test in 1 suite passed' "$log"
