#!/usr/bin/env bash
# Build kestog-hub: KestoG (Russian draughts, Kestutis Gasaitis) behind a Hub front
# end, to play it with `damas match --variant russian`.
#   bash tools/kestog/build.sh PATH/TO/SOURCE [OUTPUT]
# The source is not part of damas. Version 1.1 (C, 2005), from its Linux port:
#   git clone https://github.com/maksimKorzh/KestoG     # SOURCE = KestoG/KestoG.C
# Version 1.4 (C++ for Windows, 2007; EdAccess.h and KALLISTO.H beside it):
#   git clone https://github.com/rhalbersma/kestog     # SOURCE = kestog/KestoG_1_4.cpp
# OUTPUT defaults to target/kestog-hub.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${1:?usage: build.sh PATH/TO/SOURCE [OUTPUT]}"
out="${2:-target/kestog-hub}"
[ -f "$src" ] || { echo "build.sh: no file $src" >&2; exit 1; }
src="$(cd "$(dirname "$src")" && pwd)/$(basename "$src")"
mkdir -p "$(dirname "$out")"
if grep -q 'EI_Think' "$src"; then
  # 1.4: the Kallisto-interface version, compiled as C++ against a small Windows shim.
  g++ -O3 -w -fpermissive -std=gnu++14 -x c++ -DKESTOG_14 -DKESTOG_VERSION='"1.4"' \
    -DKESTOG_SOURCE="\"$src\"" -I "$here/shim" -I "$(dirname "$src")" \
    "$here/hub.c" -lpthread -o "$out.tmp"
else
  gcc -O3 -w -x c -DKESTOG_VERSION='"1.1"' -DKESTOG_SOURCE="\"$src\"" \
    "$here/hub.c" -lm -lpthread -o "$out.tmp"
fi
mv "$out.tmp" "$out"
echo "built $out"
