#!/usr/bin/env bash
# Fuzzes nagi's input parsers (Sources/NagiDocuments, Sources/Breath) with libFuzzer + AddressSanitizer.
#
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#   SECONDS_PER_TARGET  how long each target runs (default 60)
#   TARGET              any of: inline session course progress expander soundscape (default: all, one after another)
#
# Each target is compiled with swiftc (no SwiftPM): NagiMath, NagiBase, Breath and Synth (which NagiDocuments' soundscape
# decoding fills) are built as modules, then the target from Sources/NagiDocuments/*.swift +
# Fuzz/Targets/Support/*.swift + the schedule invariants the tests share
# (Tests/NagiTestSupport/ScheduleInvariants.swift) + its own file; the soundscape target links NagiDocuments
# built as a module too. Each is seeded from the committed Fuzz/Corpus/<target>/ and writes what it
# learns to a scratch folder outside the repository:
#   $NAGI_FUZZ_DIR (default ${TMPDIR:-/tmp}/nagi-fuzz)/{bin,corpus/<target>,findings/<target>,logs}
# Other settings: BREATH_SOURCES (folder of Breath sources, default Sources/Breath), NAGI_FUZZ_PRESETS
# (Presets folder, default the repository's), FUZZ_OPTIMIZATION (default "-O -g").
#
# Exits 1 if a target fails to build or finds a crash, timeout, out-of-memory or leak; prints per target the
# inputs executed (stat::number_of_executed_units), seconds run, final coverage and the finding files.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-60}"
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(inline session course progress expander soundscape)

scratch="${NAGI_FUZZ_DIR:-${TMPDIR:-/tmp}/nagi-fuzz}"
sources="${BREATH_SOURCES:-$root/Sources/Breath}"
documents="$root/Sources/NagiDocuments"
optimization="${FUZZ_OPTIMIZATION:--O -g}"
mkdir -p "$scratch/bin" "$scratch/logs"

case "$seconds" in
    ''|*[!0-9]*) echo "fuzz.sh: SECONDS_PER_TARGET must be a whole number, got '$seconds'" >&2; exit 64 ;;
esac

# The target's source file and the longest input it is given.
target_file() {
    case "$1" in
        inline) echo InlinePatternFuzz.swift ;;
        session) echo SessionFuzz.swift ;;
        course) echo CourseFuzz.swift ;;
        progress) echo ProgressFuzz.swift ;;
        expander) echo ExpanderFuzz.swift ;;
        soundscape) echo SoundscapeFuzz.swift ;;
        *) return 1 ;;
    esac
}
max_len() {
    case "$1" in
        inline) echo 128 ;;
        expander) echo 512 ;;
        *) echo 8192 ;;
    esac
}

# The Swift runtime's crash reporter waits on a crashed process that libFuzzer has already ended; turn it off.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-allocator_may_return_null=0:detect_stack_use_after_return=0}"

# Builds module $1 from the files that follow as a static library under $scratch/modules.
build_module() {
    local name="$1"
    shift
    swiftc "${flags[@]}" -I "$modules" -module-name "$name" -emit-module -emit-module-path "$modules/$name.swiftmodule" \
        -emit-library -static -o "$modules/lib$name.a" "$@"
}

# Builds target $1 from its file $2 into $3. Breath imports NagiMath (the C library's elementary functions, through
# CLibrary) and NagiBase (what kind of fault an error is, the rule for displayed text, path arithmetic and the
# frame-pulling protocol the renderer and bed loop adopt); the targets import Breath, and NagiDocuments imports
# Synth (and Synth the C module of its kernel's AVX twin); the soundscape target also needs NagiDocuments as a module.
build_target() {
    modules="$scratch/modules"
    flags=(-swift-version 6 -parse-as-library -sanitize=fuzzer,address)
    # shellcheck disable=SC2206
    flags+=($optimization)
    mkdir -p "$modules"
    # The modules every target shares are built once per run.
    if [ -z "${shared_built:-}" ]; then
        build_module CLibrary "$root"/Sources/CLibrary/*.swift || return 1
        build_module NagiMath "$root"/Sources/NagiMath/*.swift || return 1
        build_module NagiBase "$root"/Sources/NagiBase/*.swift || return 1
        build_module Breath "$sources"/*.swift || return 1
        # Synth's AVX kernel twin is C: a module map for its header (SwiftPM makes one for the package), and the
        # object compiled by the toolchain's clang, with AddressSanitizer like the rest.
        local kernel="$root/Sources/CNagiSynthKernel"
        printf 'module CNagiSynthKernel {\n    header "%s"\n    export *\n}\n' "$kernel/include/CNagiSynthKernel.h" > "$modules/module.modulemap"
        clang -c -fsanitize=address -O1 -g -I "$kernel/include" "$kernel/CNagiSynthKernel.c" -o "$modules/CNagiSynthKernel.o" || return 1
        build_module Synth "$root"/Sources/Synth/*.swift || return 1
        shared_built=1
    fi
    local shared=(-lSynth -lBreath -lNagiBase -lNagiMath -lCLibrary "$modules/CNagiSynthKernel.o")
    if [ "$1" = soundscape ]; then
        build_module NagiDocuments "$documents"/*.swift || return 1
        swiftc "${flags[@]}" -I "$modules" -L "$modules" -lNagiDocuments "${shared[@]}" \
            -module-name SoundscapeFuzz "$root/Fuzz/Targets/$2" -o "$3" || return 1
    else
        swiftc "${flags[@]}" -I "$modules" -L "$modules" "${shared[@]}" -module-name BreathFuzz \
            "$documents"/*.swift "$root"/Fuzz/Targets/Support/*.swift "$root/Tests/NagiTestSupport/ScheduleInvariants.swift" \
            "$root/Fuzz/Targets/$2" -o "$3" || return 1
    fi
}

failed=0
summary=()
for target in "${targets[@]}"; do
    if ! file="$(target_file "$target")"; then
        echo "fuzz.sh: unknown target '$target' (inline, session, course, progress, expander, soundscape)" >&2
        exit 64
    fi
    if [ "$target" = progress ] && [ ! -f "$documents/CourseProgress.swift" ]; then
        summary+=("$(printf '%-10s skipped: %s/CourseProgress.swift does not exist' "$target" "$documents")")
        continue
    fi
    binary="$scratch/bin/$target"
    log="$scratch/logs/$target.log"
    corpus="$scratch/corpus/$target"
    findings="$scratch/findings/$target"
    mkdir -p "$corpus" "$findings"

    echo "== $target: building"
    build_log="$scratch/logs/$target.build.log"
    if ! build_target "$target" "$file" "$binary" 2> "$build_log"; then
        grep -v "warning: Cannot export local symbol" "$build_log" | head -40 >&2
        summary+=("$(printf '%-10s BUILD FAILED (see %s)' "$target" "$build_log")")
        failed=1
        continue
    fi

    before="$(find "$findings" -type f | wc -l)"
    echo "== $target: fuzzing for ${seconds}s (log: $log)"
    start="$(date +%s)"
    dictionary=()
    [ -f "$root/Fuzz/Dictionaries/$target.dict" ] && dictionary=(-dict="$root/Fuzz/Dictionaries/$target.dict")
    "$binary" "$corpus" "$root/Fuzz/Corpus/$target" "${dictionary[@]}" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len="$(max_len "$target")" \
        -artifact_prefix="$findings/" -print_final_stats=1 -print_pcs=0 > "$log" 2>&1
    status=$?
    elapsed=$(( $(date +%s) - start ))

    executed="$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')"
    [ -z "$executed" ] && executed="$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')"
    coverage="$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*')"
    after="$(find "$findings" -type f | wc -l)"
    new_findings=$(( after - before ))
    crashes="$(find "$findings" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) -newer "$binary" | wc -l)"
    if [ "$status" -ne 0 ] || [ "$crashes" -gt 0 ]; then
        failed=1
        verdict="FOUND $crashes (exit $status): $(find "$findings" -type f -newer "$binary" | tr '\n' ' ')"
        grep -E 'invariant failed|Fatal error|ERROR: AddressSanitizer|ERROR: libFuzzer|SUMMARY' "$log" | head -5 | sed 's/^/    /'
    else
        verdict="nothing found"
        [ "$new_findings" -gt 0 ] && verdict="$verdict ($new_findings slow-unit files)"
    fi
    summary+=("$(printf '%-10s %10s inputs in %5ss  %-40s %s' "$target" "${executed:-?}" "$elapsed" "${coverage:-cov: ?}" "$verdict")")
done

echo
echo "== summary (corpus and findings under $scratch)"
printf '%s\n' "${summary[@]}"
exit "$failed"
