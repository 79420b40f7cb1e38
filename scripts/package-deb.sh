#!/usr/bin/env bash
# Builds the Debian package nagi_VERSION_ARCH.deb in .build/deb/: the release binary (Swift's standard library and
# Foundation linked statically, so no Swift is needed where it is installed), the manual page, the shell
# completions (bash, zsh, fish), the presets and courses, the machine-readable copyright, and nagi serve as the
# systemd user unit nagi-serve.service. The C libraries it links become its dependencies through dpkg-shlibdeps
# (flite, loaded only when a guide speaks, is named by hand). The last line printed is the .deb's path.
#
#   scripts/package-deb.sh            build it (a release build first)
#   scripts/package-deb.sh --check    and check it with lintian: no error (its warnings and notes are printed)
#
# Needs dpkg-dev (dpkg-shlibdeps), and for --check lintian: scripts/install-packages.sh --tests. The package
# installed and run in a clean Debian, and its user unit verified there: scripts/package-test.sh.
# Reproducible: every date in the package is the last commit's (SOURCE_DATE_EPOCH).
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
[ "${1:-}" = "--check" ] && check=1

# No local rpath: the binary finds its libraries where Debian puts them ($ORIGIN would be lintian's error).
swift build -c release --product nagi --disable-local-rpath >&2
binary=.build/release/nagi
version=$("$binary" --version | sed -n 's/^nagi //p')
arch=$(dpkg --print-architecture)
[ -n "$version" ] || { echo "package-deb: $binary --version printed no version" >&2; exit 70; }
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
maintainer="${NAGI_DEB_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || echo 'The nagi authors <nagi@users.noreply.github.com>')}"

work=.build/deb
root="$work/nagi_${version}_$arch"
deb="$work/nagi_${version}_$arch.deb"
rm -rf "$root" "$deb"
mkdir -p "$root/DEBIAN"

# The binary, stripped of its symbols (lintian: unstripped-binary-or-object); Swift's metadata sections stay.
install -Dm755 "$binary" "$root/usr/bin/nagi"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/nagi"
"$root/usr/bin/nagi" --version >/dev/null

# Manual and completions, generated from the same command specs as --help.
install -d "$root/usr/share/man/man1"
"$binary" help --man | gzip -9n > "$root/usr/share/man/man1/nagi.1.gz"
install -d "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d"
"$binary" completions bash > "$root/usr/share/bash-completion/completions/nagi"
"$binary" completions zsh > "$root/usr/share/zsh/vendor-completions/_nagi"
"$binary" completions fish > "$root/usr/share/fish/vendor_completions.d/nagi.fish"

# The presets and courses the binary carries, as files to read and to copy into ~/.config/nagi/ and change.
for kind in patterns soundscapes courses; do
    install -d "$root/usr/share/nagi/presets/$kind"
    install -m644 Presets/"$kind"/*.json "$root/usr/share/nagi/presets/$kind/"
done

install -Dm644 packaging/nagi-serve.service "$root/usr/lib/systemd/user/nagi-serve.service"

# Documentation: the copyright, the changelog, the README.
date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
install -Dm644 packaging/copyright "$root/usr/share/doc/nagi/copyright"
sed -e "s/@VERSION@/$version/" -e "s/@MAINTAINER@/$maintainer/" -e "s/@DATE@/$date/" packaging/changelog | gzip -9n > "$root/usr/share/doc/nagi/changelog.gz"
gzip -9nc README.md > "$root/usr/share/doc/nagi/README.md.gz"

# Dependencies: the shared libraries the binary links, as dpkg-shlibdeps names their packages (it wants a
# debian/control to read, so it runs in a folder of its own).
shlibs="$work/shlibs"
rm -rf "$shlibs" && mkdir -p "$shlibs/debian"
printf 'Source: nagi\n\nPackage: nagi\nArchitecture: any\n' > "$shlibs/debian/control"
depends=$(cd "$shlibs" && dpkg-shlibdeps -O "$OLDPWD/$root/usr/bin/nagi" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "package-deb: dpkg-shlibdeps found no dependency" >&2; exit 70; }
depends="$depends, libflite1"

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@MAINTAINER@/$maintainer/" \
    -e "s/@INSTALLED_SIZE@/$installed_size/" -e "s/@DEPENDS@/$depends/" packaging/control.in > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -exec touch --no-dereference -d "@$SOURCE_DATE_EPOCH" {} +
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2

if [ $check = 1 ]; then
    lintian --fail-on error "$deb" >&2
fi
echo "$deb"
