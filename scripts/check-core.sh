#!/usr/bin/env bash
# Checks that nagi's pure core (the NagiCore product: Breath, NagiDocuments, Synth and what they need) stands
# alone, as an app on any Swift platform would use it:
#   1. its sources import nothing but each other outside `#if canImport(...)` (no Glibc, Foundation or C module);
#   2. Examples/NagiCoreExample, which depends on the NagiCore product alone, builds by itself (a scratch path of
#      its own) and links none of the system libraries the command line uses;
#   3. what it renders (an inline pattern in the rain soundscape, every frame pulled from Synth's Renderer) has
#      the checksum of `nagi render`'s samples for the same session (NagiKit's renderer);
#   4. the core compiled by swiftc alone, without its C kernel (as on a platform other than Linux, where
#      Package.swift leaves the kernel out), builds and renders the same samples through Swift's loops.
# Needs python3 and readelf (binutils). Usage: scripts/check-core.sh [debug|release]
set -euo pipefail
cd "$(dirname "$0")/.."
configuration="${1:-debug}"
core=(Breath NagiDocuments Synth NagiMath CLibrary NagiBase)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A fresh scratch path each run: SwiftPM's plan for a package depended on by path does not notice the files
# that package adds or removes, so a kept one fails after such a change.
scratch="$work/build"

# 1. An import of anything but the core's own modules must sit in an `#if canImport(...)` branch.
strays="$(for module in "${core[@]}"; do
    awk -v core=" ${core[*]} " '
        /^[[:space:]]*#if[[:space:]]+canImport\(/ { guarded[++depth] = 1; next }
        /^[[:space:]]*#if/ { guarded[++depth] = 0; next }
        /^[[:space:]]*#elseif[[:space:]]+canImport\(/ { guarded[depth] = 1; next }
        /^[[:space:]]*#(elseif|else)/ { guarded[depth] = 0; next }
        /^[[:space:]]*#endif/ { depth--; next }
        /^[[:space:]]*(@[_A-Za-z]+[[:space:]]+)*import[[:space:]]/ {
            name = $0
            sub(/^.*import[[:space:]]+((struct|class|enum|protocol|func|var|let|typealias)[[:space:]]+)?/, "", name)
            sub(/[.[:space:]].*$/, "", name)
            inside = 0
            for (level = 1; level <= depth; level++) if (guarded[level]) inside = 1
            if (!inside && index(core, " " name " ") == 0) print FILENAME ":" FNR ": " $0
        }' "Sources/$module"/*.swift
done)"
if [ -n "$strays" ]; then
    echo "check-core: the core imports outside #if canImport(...):" >&2
    echo "$strays" >&2
    exit 1
fi
echo "imports: ${core[*]} import only each other outside #if canImport(...)"

# 2. The example, built on its own, and what it links.
swift build -c "$configuration" --package-path Examples/NagiCoreExample --scratch-path "$scratch/example" >/dev/null
example="$(swift build -c "$configuration" --package-path Examples/NagiCoreExample --scratch-path "$scratch/example" --show-bin-path)/NagiCoreExample"
needed="$(readelf -d "$example" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
loaded="$(ldd "$example")"
for library in libsndfile libasound libFLAC libsoxr libebur128 libtag libflite; do
    if grep -q "$library" <<<"$needed $loaded"; then
        echo "check-core: NagiCoreExample links $library: $needed" >&2
        exit 1
    fi
done
echo "links: $needed(none of libsndfile, libasound, libFLAC, libsoxr, libebur128, libtag, libflite)"

# 3. The same session through the command line (NagiKit), its samples checksummed as the example does.
pattern=4-2-6 cycles=2 soundscape=Presets/soundscapes/rain.json
swift build -c "$configuration" --product nagi >/dev/null
nagi="$(swift build -c "$configuration" --show-bin-path)/nagi"
"$nagi" render "$pattern" --cycles "$cycles" --soundscape "$soundscape" -o "$work/cli.raw" --format raw --bits float --quiet
expected="$(python3 - "$work/cli.raw" <<'PY'
import array, sys
words = array.array("I", open(sys.argv[1], "rb").read())
if sys.byteorder != "little":
    words.byteswap()
checksum = 0xcbf29ce484222325
for word in words:
    checksum = ((checksum ^ word) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
print("%d frames %016x" % (len(words) // 2, checksum))
PY
)"
# "N frames of TITLE, peak P, checksum C" as "N frames C".
summary() { sed -n 's/^\([0-9]*\) frames of .*, checksum \([0-9a-f]*\)$/\1 frames \2/p'; }
got="$("$example" "$pattern" "$cycles" < "$soundscape" | summary)"
if [ "$got" != "$expected" ]; then
    echo "check-core: NagiCoreExample rendered '$got', nagi render '$expected'" >&2
    exit 1
fi
echo "render: NagiCoreExample $pattern x$cycles in rain: $got, the same samples as nagi render's"

# 4. The core by swiftc alone, no C kernel module in sight, in dependency order; then the example against it.
modules="$scratch/swift-only"
mkdir -p "$modules"
for module in CLibrary NagiMath NagiBase Breath Synth NagiDocuments; do
    swiftc -swift-version 6 -parse-as-library -I "$modules" -module-name "$module" -emit-module \
        -emit-module-path "$modules/$module.swiftmodule" -emit-library -static -o "$modules/lib$module.a" "Sources/$module"/*.swift
done
swiftc -swift-version 6 -I "$modules" -L "$modules" -lNagiDocuments -lSynth -lBreath -lNagiBase -lNagiMath -lCLibrary \
    -module-name NagiCoreExample Examples/NagiCoreExample/Sources/NagiCoreExample/main.swift -o "$modules/NagiCoreExample"
if nm "$modules/NagiCoreExample" | grep -q nagi_synth_; then
    echo "check-core: the Swift-only build has the C kernel in it" >&2
    exit 1
fi
got="$("$modules/NagiCoreExample" "$pattern" "$cycles" < "$soundscape" | summary)"
if [ "$got" != "$expected" ]; then
    echo "check-core: without the C kernel NagiCoreExample rendered '$got', nagi render '$expected'" >&2
    exit 1
fi
echo "swift only: the core without its C kernel renders the same samples ($got)"
