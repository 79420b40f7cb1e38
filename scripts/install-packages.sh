#!/usr/bin/env bash
# Installs, from Debian (and PyPI for selenium), what nagi needs and, with --tests, what its tests need too; only
# what is missing, so a second run costs nothing. Run as root (apt-get).
#
#   scripts/install-packages.sh            what nagi needs to build and run
#   scripts/install-packages.sh --tests    that, and what the tests need
set -euo pipefail

# nagi links libsndfile, alsa-lib, flite (loaded when a guide first speaks), libsoxr, TagLib, libmicrohttpd
# (nagi serve), libarchive (a course's album as a ZIP), libqrencode (the QR code a phone joins by) and GnuTLS
# (nagi serve's local certificate authority), found through pkg-config.
packages=(libsndfile1-dev libasound2-dev flite1-dev libsoxr-dev libtag1-dev libmicrohttpd-dev libarchive-dev libqrencode-dev libgnutls28-dev pkg-config)
if [ "${1:-}" = "--tests" ]; then
    # The tests' own tools: libebur128 (the loudness reference nagi's meter is checked against), flite's tool (speech
    # compared), sox, flac, python3 and mutagen (test clips, tags read back independently), ffmpeg (loudness,
    # chapters), librsvg2-bin (plots as PNG), pulseaudio with the ALSA plugins (a paced device without hardware),
    # tmux (the terminal view), zsh and fish (completion scripts parse), groff and man-db (the man page), numpy and
    # scipy (a heart-rate spectrum checked against scipy's Welch), chromium and its driver with selenium (the
    # pages in a real browser), WebKitGTK's driver under xvfb (the same pages in WebKit), axe-core through
    # axe-selenium-python (the pages' accessibility), curl, bc (the benchmarks' arithmetic), unzip (an album's ZIP
    # listed and unpacked), nginx-light (a caching proxy in front of nagi serve), zbar-tools (the QR code read back),
    # openssl (a certificate of the user's own), and for the Debian package (scripts/package-deb.sh,
    # scripts/package-test.sh) dpkg-dev (dpkg-shlibdeps), lintian, systemd (systemd-analyze checks the user unit)
    # and debootstrap (a clean bookworm root to install it in).
    packages+=(libebur128-dev flite sox flac python3 python3-mutagen ffmpeg librsvg2-bin pulseaudio libasound2-plugins tmux zsh fish
        groff-base man-db python3-numpy python3-scipy chromium chromium-driver webkit2gtk-driver xvfb xauth curl bc unzip nginx-light
        zbar-tools openssl dpkg-dev lintian systemd debootstrap)
fi
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ "${1:-}" = "--tests" ] && ! python3 -c "import selenium, axe_selenium_python" 2>/dev/null; then
    echo "Installing: selenium, axe-selenium-python (PyPI)"
    if ! python3 -m pip --version >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null
    fi
    python3 -m pip install --quiet selenium axe-selenium-python 2>/dev/null || python3 -m pip install --quiet --break-system-packages selenium axe-selenium-python
fi
