#!/usr/bin/env bash
# Tests the Debian package as a person without Swift meets it: built (scripts/package-deb.sh --check: lintian with
# no error), installed with apt-get into a clean Debian 12 (bookworm) root made by debootstrap, and run there —
# nagi render (a spoken guide too, so flite's dependency holds), nagi serve (HTTPS, its certificate checked against
# its /ca.crt, reached over 127.0.0.1 only), man nagi,
# the completions, and the user unit checked by systemd-analyze verify --user.
#
#   scripts/package-test.sh [nagi_….deb]     (as root; builds the package when none is given)
#
# The clean root is made once and kept in $NAGI_PACKAGE_TEST_CACHE (default /var/cache/nagi-package-test), with
# apt's downloads; every run installs into an overlay of it that is thrown away, so it starts clean each time and
# a repeated run costs seconds, not minutes. apt's configured Debian mirror must be reachable.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "package-test: run as root (debootstrap, chroot, mounts)" >&2; exit 77; }
cache="${NAGI_PACKAGE_TEST_CACHE:-/var/cache/nagi-package-test}"
base="$cache/bookworm"

if [ -z "${NAGI_PACKAGE_TEST_NAMESPACE:-}" ]; then
    deb="${1:-$(scripts/package-deb.sh --check | tail -n1)}"
    deb="$(realpath "$deb")"
    # The clean root, once: debootstrap's minimal system with man-db (man nagi) and systemd (systemd-analyze).
    if [ ! -f "$base/.nagi-package-test-base" ]; then
        # apt's configured mirror: the first http(s) URI of a one-line or deb822 source that is not security's.
        mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
            | grep -oE '^(URIs:|deb( \[[^]]*\])?) +https?://[^ ]+' | grep -v security | grep -oE 'https?://[^ ]+' | head -n1 || true)
        mirror="${mirror:-http://deb.debian.org/debian}"
        echo "package-test: making a clean bookworm root in $base from $mirror (once)" >&2
        rm -rf "$base" "$base.partial"
        mkdir -p "$cache"
        debootstrap --variant=minbase bookworm "$base.partial" "$mirror" >&2
        cp /etc/resolv.conf "$base.partial/etc/resolv.conf"
        chroot "$base.partial" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends man-db systemd >&2
        chroot "$base.partial" apt-get clean
        touch "$base.partial/.nagi-package-test-base"
        mv "$base.partial" "$base"
    fi
    # The rest in a mount namespace of its own: every mount ends with it, whatever happens.
    NAGI_PACKAGE_TEST_NAMESPACE=1 exec unshare --mount --propagation private "$0" "$deb"
fi

deb="$1"
run="$(mktemp -d /tmp/nagi-package-test.XXXXXX)"
root="$run/root"
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    umount -R "$root" 2>/dev/null || umount -R --lazy "$root" 2>/dev/null || true
    rm -rf "$run"
}
trap cleanup EXIT
mkdir -p "$run/upper" "$run/work" "$root" "$cache/archives/partial" "$cache/lists/partial"
mount -t overlay overlay -o "lowerdir=$base,upperdir=$run/upper,workdir=$run/work" "$root"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount --bind "$cache/archives" "$root/var/cache/apt/archives"
mount --bind "$cache/lists" "$root/var/lib/apt/lists"
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
fail() { echo "package-test: FAILED: $*" >&2; exit 1; }
step() { echo "package-test: $*" >&2; }

step "installing $(basename "$deb") with apt-get into a clean bookworm root"
[ ! -e "$root/opt/swift" ] && ! in_root sh -c 'ldconfig -p | grep -q swift' || fail "the clean root has Swift"
cp "$deb" "$root/tmp/"
in_root apt-get update -q >&2
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "/tmp/$(basename "$deb")" >&2
in_root nagi --version | grep '^nagi ' >/dev/null || fail "nagi --version"

step "nagi render, with a spoken guide"
in_root sh -c 'cd /tmp && nagi render 4-7-8 --cycles 2 --cues voice -o 4-7-8.flac' >&2 || fail "nagi render"
seconds=$(soxi -D "$root/tmp/4-7-8.flac")
# Two cycles of 4 + 7 + 8 s: 38 s and whatever framing the session has, never less.
awk -v s="$seconds" 'BEGIN { exit !(s >= 38 && s < 60) }' || fail "the render lasts $seconds s"

step "nagi serve as the user unit starts it (beyond loopback: HTTPS, a token), reached over 127.0.0.1"
# Not through in_root (a function: & would fork a shell): chroot and env exec, so $! is nagi's own pid.
chroot "$root" env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 nagi serve --listen 0.0.0.0:0 --no-qr > "$run/serve.out" 2> "$run/serve.err" &
server=$!
for _ in $(seq 200); do grep -q 'serving on' "$run/serve.err" 2>/dev/null && break; sleep 0.1; done
url=$(head -n1 "$run/serve.out")
case "$url" in
    https://0.0.0.0:*) fail "nagi serve printed '$url'" ;;
    https://*:*/\?token=*) ;;
    *) fail "nagi serve printed '$url'; $(cat "$run/serve.err")" ;;
esac
authority="${url#https://}"; authority="${authority%%/*}"; port="${authority##*:}"
# The local authority's certificate (public), then the printed URL checked against it, reached through 127.0.0.1.
curl -fsS --insecure -o "$run/ca.crt" "https://127.0.0.1:$port/ca.crt" || fail "GET /ca.crt"
tls=(--cacert "$run/ca.crt" --connect-to "$authority:127.0.0.1:$port")
curl -fsS "${tls[@]}" "${url%%\?*}api/presets?${url#*\?}" | grep '"4-7-8"' >/dev/null || fail "GET /api/presets"
curl -fsS "${tls[@]}" -o "$run/box.wav" "${url%%\?*}api/render.wav?pattern=box&cycles=1&${url#*\?}" || fail "GET /api/render.wav"
[ "$(soxi -r "$run/box.wav")" -gt 0 ] || fail "the served WAV"
curl -fsS "${tls[@]}" "$url" | grep '<title>nagi studio</title>' >/dev/null || fail "the studio page"
kill "$server"; wait "$server" || fail "nagi serve did not exit 0 on SIGTERM"; server=""

step "man nagi, the completions, the presets, the user unit"
in_root env MANPAGER=cat MANWIDTH=80 man nagi 2>/dev/null | grep 'nagi serve' >/dev/null || fail "man nagi"
for file in /usr/share/bash-completion/completions/nagi /usr/share/zsh/vendor-completions/_nagi \
    /usr/share/fish/vendor_completions.d/nagi.fish /usr/share/nagi/presets/courses/beginner-21.json /usr/share/doc/nagi/copyright; do
    [ -s "$root$file" ] || fail "no $file"
done
mkdir -p "$root/tmp/runtime" && chmod 700 "$root/tmp/runtime"
in_root env XDG_RUNTIME_DIR=/tmp/runtime systemd-analyze verify --user /usr/lib/systemd/user/nagi-serve.service >&2 || fail "systemd-analyze verify --user"
step "passed: installed size $(in_root dpkg-query -W -f='${Installed-Size}' nagi) KiB, $(in_root dpkg-query -W -f='${Depends}' nagi | tr ',' '\n' | wc -l) dependencies"
