#!/bin/sh
# deps.sh build|test — check for what building or testing dbverify needs
# and install it on Debian/Ubuntu (apt-get); elsewhere, say how to.
#   build: a C compiler and the Z3 headers and library (cgo, go-z3)
#   test:  PostgreSQL and MariaDB servers (the tests start throwaway ones)
set -eu
what=${1:-build}

sudo_cmd() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_install() {
	missing=
	for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
	[ -z "$missing" ] && return 0
	echo "installing$missing (apt-get)"
	sudo_cmd apt-get update -qq
	sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

instructions() {
	case "$(uname -s)" in
	Darwin) echo "  macOS:  brew install z3$1   (and Xcode's command line tools for a C compiler: xcode-select --install)" ;;
	*)
		if [ -r /etc/os-release ]; then . /etc/os-release; fi
		case "${ID:-} ${ID_LIKE:-}" in
		*fedora*|*rhel*|*centos*) echo "  Fedora/RHEL:  sudo dnf install gcc z3-devel$2" ;;
		*arch*) echo "  Arch:  sudo pacman -S gcc z3$2" ;;
		*alpine*) echo "  Alpine:  sudo apk add build-base z3-dev$2" ;;
		*suse*) echo "  openSUSE:  sudo zypper install gcc z3-devel$2" ;;
		*) echo "  install a C compiler and the Z3 development files (z3.h and libz3) with your package manager$2" ;;
		esac ;;
	esac
}

if command -v dpkg >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
	case "$what" in
	build) apt_install gcc libz3-dev ;;
	test) apt_install postgresql mariadb-server ;;
	esac
	exit 0
fi

case "$what" in
build)
	ok=1
	cc=$(command -v cc || command -v gcc || command -v clang || true)
	if [ -z "$cc" ]; then echo "dbverify needs a C compiler (cgo builds the Z3 binding)."; ok=0; fi
	if [ -n "$cc" ] && ! printf '#include <z3.h>\nint main(void){return 0;}\n' | "$cc" -x c - -o /dev/null -lz3 $(pkg-config --cflags --libs z3 2>/dev/null || true) >/dev/null 2>&1; then
		echo "dbverify needs Z3's headers and library (z3.h, libz3; version 4.8 or later)."; ok=0
	fi
	if [ "$ok" = 0 ]; then
		echo "Install them:"; instructions "" ""
		exit 1
	fi ;;
test)
	for b in initdb pg_ctl mariadbd mariadb-install-db; do
		command -v "$b" >/dev/null 2>&1 || { echo "the tests start throwaway PostgreSQL and MariaDB servers; $b is missing. Install them:"; instructions " postgresql mariadb" " postgresql-server mariadb-server"; exit 1; }
	done ;;
esac
