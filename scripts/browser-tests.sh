#!/usr/bin/env bash
# The browser tests of the studio and the pacer (issues 44 and 52): starts the real server, `nagi serve --listen
# 127.0.0.1:0`, runs Tests/Browser against the URL it prints in headless Chromium and then in WebKitGTK (under
# xvfb-run), stops it, and closes with "N passed, M failed" over both (exit status 1 on any failure). With
# --screenshots DIR it takes the README's screenshots into DIR instead (scripts/screenshots.sh).
#
#   scripts/browser-tests.sh [--nagi PATH] [--server-command CMD] [--browsers "chromium webkit"] [--screenshots DIR]
#                            [-- run.py options]
#
# --nagi (or $NAGI; default .build/debug/nagi) is the binary served and the one the tests compare downloads
# with. --server-command replaces the server: a command that prints its URL as its first line and serves until
# SIGTERM. The server gets its own empty configuration, data and state folders, holding two user patterns
# (a Bézier-eased and a linear one), so the tests meet the same presets on any machine.
# Needs: chromium, chromium-driver, webkit2gtk-driver, xvfb, python3 with selenium and axe-selenium-python, sox
# (scripts/install-packages.sh --tests).
set -euo pipefail
cd "$(dirname "$0")/.."

nagi="${NAGI:-.build/debug/nagi}"
server_command=""
screenshots=""
browsers="chromium webkit"
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --nagi) nagi="$2"; shift 2 ;;
        --server-command) server_command="$2"; shift 2 ;;
        --screenshots) screenshots="$2"; shift 2 ;;
        --browsers) browsers="$2"; shift 2 ;;
        --) shift; extra=("$@"); break ;;
        *) echo "browser-tests: unknown argument '$1'" >&2; exit 64 ;;
    esac
done

fail_setup() {
    echo "browser-tests: $1" >&2
    echo "0 passed, 1 failed"
    exit 1
}
[ -x "$nagi" ] || fail_setup "no nagi binary at '$nagi' (build it, or give --nagi PATH)"
command -v chromium >/dev/null || [ -x "${NAGI_CHROMIUM:-}" ] || fail_setup "chromium is not installed (apt-get install chromium chromium-driver)"
command -v chromedriver >/dev/null || [ -x "${NAGI_CHROMEDRIVER:-}" ] || fail_setup "chromedriver is not installed (apt-get install chromium-driver)"
python3 -c "import selenium, axe_selenium_python" 2>/dev/null || fail_setup "python3 has no selenium or axe-selenium-python (pip install selenium axe-selenium-python)"
case " $browsers " in *" webkit "*)
    command -v WebKitWebDriver >/dev/null || fail_setup "WebKitWebDriver is not installed (apt-get install webkit2gtk-driver)"
    command -v xvfb-run >/dev/null || fail_setup "xvfb-run is not installed (apt-get install xvfb xauth)" ;;
esac
nagi="$(cd "$(dirname "$nagi")" && pwd)/$(basename "$nagi")"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/nagi-browser-tests.XXXXXX")"
server_pid=""
stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$server_pid" 2>/dev/null; then
            echo "browser-tests: the server did not stop on SIGTERM within 5 s" >&2
            kill -KILL "$server_pid" 2>/dev/null || true
        fi
        wait "$server_pid" 2>/dev/null || true
    fi
    server_pid=""
}
trap 'stop_server; rm -rf "$scratch"' EXIT

# The server's own preset folders: two user patterns whose easing is not the default cosine.
mkdir -p "$scratch/config/nagi/patterns" "$scratch/data" "$scratch/state"
cat > "$scratch/config/nagi/patterns/browser-bezier.json" <<'JSON'
{"title": "Browser test (Bezier)", "easing": "bezier", "cycles": 2,
 "phases": [{"kind": "inhale", "seconds": 2}, {"kind": "holdIn", "seconds": 0.5}, {"kind": "exhale", "seconds": 2}]}
JSON
cat > "$scratch/config/nagi/patterns/browser-linear.json" <<'JSON'
{"title": "Browser test (linear)", "easing": "linear", "cycles": 2,
 "phases": [{"kind": "inhale", "seconds": 2}, {"kind": "holdIn", "seconds": 0.5}, {"kind": "exhale", "seconds": 2}]}
JSON

if [ -z "$server_command" ]; then
    server_command="$(printf '%q' "$nagi") serve --listen 127.0.0.1:0"
fi
XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_STATE_HOME="$scratch/state" \
    bash -c "exec $server_command" > "$scratch/server.out" 2> "$scratch/server.err" &
server_pid=$!

url=""
for _ in $(seq 300); do
    # The first line is the URL (or names it: the first http:// word is taken).
    url="$(head -n 1 "$scratch/server.out" 2>/dev/null | grep -o 'http://[^ ]*' | head -n 1 || true)"
    [ -n "$url" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$url" ]; then
    cat "$scratch/server.err" >&2 || true
    if kill -0 "$server_pid" 2>/dev/null; then
        fail_setup "the server printed no URL within 30 s: $server_command"
    fi
    wait "$server_pid" && code=0 || code=$?
    server_pid=""
    fail_setup "the server exited (status $code) without printing its URL: $server_command"
fi
echo "browser-tests: server at $url ($server_command)"

export PYTHONDONTWRITEBYTECODE=1
set -o pipefail
status=0
if [ -n "$screenshots" ]; then
    python3 Tests/Browser/screenshots.py --url "$url" --out "$screenshots" "${extra[@]}" || status=$?
else
    passed=0
    failed=0
    for engine in $browsers; do
        runner=(python3 Tests/Browser/run.py --browser "$engine" --url "$url" --nagi "$nagi" "${extra[@]}")
        # WebKitGTK has no headless mode: it draws into xvfb-run's X server.
        [ "$engine" = webkit ] && runner=(xvfb-run -a "${runner[@]}")
        "${runner[@]}" | tee "$scratch/$engine.out" || status=1
        tally="$(tail -n 1 "$scratch/$engine.out")"
        passed=$((passed + $(echo "$tally" | sed -n 's/^\([0-9]*\) passed.*/\1/p' | grep . || echo 0)))
        failed=$((failed + $(echo "$tally" | sed -n 's/.* \([0-9]*\) failed.*/\1/p' | grep . || echo 1)))
    done
    echo "all browsers: $passed passed, $failed failed"
fi
stop_server
exit "$status"
