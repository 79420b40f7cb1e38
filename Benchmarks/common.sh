# Shared by the Benchmarks/ scripts (sourced, not run): a release build of nagi, a scratch folder removed
# on exit, a wall-clock timer and a median.

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# needs TOOL...: exits 69 naming the first tool that is missing.
needs() {
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install -y $tool)" >&2; exit 69; }
    done
}

# Builds nagi (in release, or in $NAGI_BENCH_CONFIGURATION) and sets $nagi to it; sets $work to a scratch
# folder removed on exit.
prepare() {
    needs bc
    local configuration="${NAGI_BENCH_CONFIGURATION:-release}"
    swift build -c "$configuration" --product nagi >/dev/null
    nagi="$(swift build -c "$configuration" --show-bin-path)/nagi"
    work=$(mktemp -d "${TMPDIR:-/tmp}/nagi-bench.XXXXXX")
    trap 'rm -rf "$work"' EXIT
}

# seconds_of COMMAND...: the wall-clock seconds COMMAND took (its output discarded, standard output to
# /dev/null; fails if it fails). Dirty pages left by the command before (sox writes without fsync) are written
# out first, untimed: otherwise their writeback lands in whatever runs next and is charged to it. The clock is
# bash's own ($EPOCHREALTIME, in microseconds once its locale's decimal point is dropped), read just before the
# command starts and just after it ends: timing with `date` counted two more processes' start (2-3 ms) in every
# case, nagi's, sox's and dd's alike.
seconds_of() {
    local start end
    sync
    start=${EPOCHREALTIME//[!0-9]/}
    "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }
    end=${EPOCHREALTIME//[!0-9]/}
    echo "($end - $start) / 1000000" | bc -l
}

# median NUMBER...
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }
