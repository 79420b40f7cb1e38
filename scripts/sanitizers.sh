#!/usr/bin/env bash
# Runs the test suite under ThreadSanitizer or AddressSanitizer in its own build folder.
# Usage: scripts/sanitizers.sh thread|address [--ci]
# The paced PulseAudio tests, the tmux view tests and the ffmpeg loudness tests are skipped: they measure
# real time, which the sanitizers slow several-fold; so are the peak-memory tests, whose figures a sanitizer's
# shadow memory and quarantine inflate, and the two server tests that bound a busy server's CPU time or its stop
# (2 s) (under ThreadSanitizer the busy stop takes 3-4 s, and its deliberate exit with a connection's thread still
# in flight is reported as a thread leak).
# --ci runs the suites each sanitizer is there for, so CI stays within its time (the whole suite under either
# sanitizer took about 26 minutes on the shared 2-core machine): ThreadSanitizer the code that runs on more than
# one thread (the export's worker threads, the playback loop, flite's lock, the bed's prefetch thread, signals
# during renders, every server test: connections, deadlines, throttle, render turns); AddressSanitizer the code that
# reads and writes through unsafe buffers (the kernel and the
# renderer's block edges, the guide's clips and the bed, held and streamed, libsndfile, libsoxr, libebur128 and
# ALSA wrappers, standard output). Without --ci, the whole suite runs.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-thread}
scope=${2:-all}
case "$kind" in thread|address) ;; *) echo "usage: $0 thread|address [--ci]" >&2; exit 64 ;; esac
case "$scope" in all) filter=() ;; --ci)
    if [ "$kind" = thread ]; then
        filter=(--filter 'ParallelRunnerTests|SoundtrackFaultTests|loudnessRebindsWithoutRecompiling|CourseTests|KilledRunTests|ExportManifestTests|PlaybackLoopTests|PlayTests|SpeechSynthesizerTests|BedTests|NagiServeTests')
    else
        filter=(--filter 'NagiKitTests|AudioFileTests|LiveAudioTests|ResamplingTests|GuideSourcesTests|BedSourceTests|HeldBedTests|BedVoiceTests|RendererContractTests|GuideRenderTests|KernelAgreementTests|KernelLanesTests|BedFaultTests|RenderTests|StandardOutputTests|CuePackRenderTests')
    fi ;;
*) echo "usage: $0 thread|address [--ci]" >&2; exit 64 ;; esac
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
swift test --sanitize="$kind" --scratch-path ".build/sanitizer-$kind" "${filter[@]}" \
    --skip 'PacedPlayback|TerminalView|PlayViewWidth|LoudnessTests|LoudnessMeterTests|Memory|memory|signalStopsBusyServer|goneClientStopsItsRender' 2>&1 | tee "$log"
echo "sanitizer reports: $(grep -c -E 'WARNING: ThreadSanitizer|ERROR: AddressSanitizer' "$log" || true)"
