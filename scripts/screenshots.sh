#!/usr/bin/env bash
# Retakes the pacer's and the studio's screenshots shown in the README, in headless Chromium against the real
# server: scripts/screenshots.sh [--nagi PATH] [--server-command CMD] [DIR] (default DIR: docs).
# The same build gives the same pictures (they are functions of the audio clock, paused at set moments).
set -euo pipefail
cd "$(dirname "$0")/.."
arguments=()
out="docs"
while [ $# -gt 0 ]; do
    case "$1" in
        --nagi|--server-command) arguments+=("$1" "$2"); shift 2 ;;
        *) out="$1"; shift ;;
    esac
done
exec scripts/browser-tests.sh "${arguments[@]}" --screenshots "$out"
