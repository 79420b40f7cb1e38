#!/usr/bin/env bash
# Runs `swift test` (or the command given) with TMPDIR set to a fresh empty folder and fails if the tests
# left anything of their own in it, or a new PulseAudio runtime folder in /tmp. SwiftPM's and the toolchain's
# own scratch (lock files, module caches, the test runner's output) is not the tests' doing and is listed apart.
#
# Usage: scripts/test-leaves-nothing.sh [COMMAND...]   (default: swift test)
# Exit: 0 clean, 1 something left behind, or the command's own exit status when it fails.
set -uo pipefail
cd "$(dirname "$0")/.."

scratch="$(mktemp -d)"
[ $# -eq 0 ] && set -- swift test
# Children started with a clean environment have no TMPDIR: what they leave lands in /tmp. PulseAudio clients
# without XDG_RUNTIME_DIR (alsa-lib's pulse hook, on any device open) make pulse-XXXX folders there.
pulse_before="$(ls -d /tmp/pulse-* 2>/dev/null | sort)"
TMPDIR="$scratch" "$@"
status=$?
if [ "$status" -ne 0 ]; then
    echo "test-leaves-nothing: '$*' failed with exit $status" >&2
    rm -rf "$scratch"
    exit "$status"
fi

# Toolchain scratch: SwiftPM's lock files and the clang/swift module caches, named by their tools.
toolchain='^(.*\.lock|clang-module-cache.*|swift-.*|org\.swift\..*|TemporaryDirectory\..*|xctest-.*)$'
left=()
while IFS= read -r name; do
    [ -z "$name" ] && continue
    if [[ "$name" =~ $toolchain ]]; then
        echo "toolchain scratch (not counted): $name"
    else
        left+=("$name")
    fi
done < <(ls -A "$scratch")
rm -rf "$scratch"
while IFS= read -r name; do
    [ -n "$name" ] && left+=("$name")
done < <(comm -13 <(echo "$pulse_before") <(ls -d /tmp/pulse-* 2>/dev/null | sort))
if [ ${#left[@]} -gt 0 ]; then
    echo "test-leaves-nothing: the tests left ${#left[@]} item(s) in TMPDIR (or /tmp/pulse-*):" >&2
    printf '  %s\n' "${left[@]}" >&2
    exit 1
fi
echo "test-leaves-nothing: TMPDIR is clean after '$*'"
