#!/usr/bin/env bash
# Build kestog-hub: KestoG (Russian draughts, Kestutis Gasaitis, 2005) behind a Hub
# front end, to play it with `damas match --variant russian`.
#   bash tools/kestog/build.sh PATH/TO/KestoG.C [OUTPUT]
# KestoG.C is not part of damas: take it from the Linux port,
#   git clone https://github.com/maksimKorzh/KestoG
# OUTPUT defaults to target/kestog-hub.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${1:?usage: build.sh PATH/TO/KestoG.C [OUTPUT]}"
out="${2:-target/kestog-hub}"
[ -f "$src" ] || { echo "build.sh: no file $src" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# KestoG's own main() becomes kestog_main and its printf calls go to stderr
# (kestog_printf in hub.c), so stdout carries only the protocol.
gcc -O3 -w -c -x c "$src" -Dmain=kestog_main -Dprintf=kestog_printf -o "$work/kestog.o"
gcc -O3 -Wall -Wextra -c "$here/hub.c" -o "$work/hub.o"
mkdir -p "$(dirname "$out")"
gcc "$work/kestog.o" "$work/hub.o" -lm -lpthread -o "$out.tmp"
mv "$out.tmp" "$out"
echo "built $out"
