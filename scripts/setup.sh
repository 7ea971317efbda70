#!/bin/sh
# setup.sh -- installs the Debian packages cupitc needs, when missing.
#
#   scripts/setup.sh          build and test dependencies
#   scripts/setup.sh bench    also the benchmark peers (FANN, PyTorch, OpenBLAS)
#   scripts/setup.sh fuzz     also clang with libFuzzer (make fuzz)
#
# Idempotent: packages already installed are left alone.  Needs root (or
# sudo) only when something is missing.
set -eu

pkgs="gcc make re2c bison check pkg-config libc6-dev valgrind"
if [ "${1:-}" = bench ]; then
    pkgs="$pkgs libfann-dev python3-torch libopenblas-dev python3"
fi
if [ "${1:-}" = fuzz ]; then
    pkgs="$pkgs clang libclang-rt-14-dev" # Debian 12: libFuzzer and the sanitizers
fi

missing=""
for p in $pkgs; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

if [ -z "$missing" ]; then
    echo "setup: all packages present:$(printf ' %s' $pkgs)"
    exit 0
fi

echo "setup: installing:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
