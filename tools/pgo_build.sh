#!/usr/bin/env bash
# Profile-guided build of `damas` and `damas-egdb` (opt-in; `cargo build --release`
# stays the plain build).
#
#   bash tools/pgo_build.sh [--native] [--egdb DIR]
#
# 1. builds both binaries instrumented (target/pgo-gen);
# 2. runs them on a fixed workload: searches with both evaluations from the start
#    and from twelve middlegame positions, a short self-play match, perft, a 1–4-piece
#    database build and verify, and with --egdb a search of a database ending;
# 3. merges the profiles and builds both binaries again with them (target/pgo/release).
#
# The compiler then lays out the branches as they are taken: on the 2-core VM,
# searches of the workload's own positions took 3–7 % less time, others 0–2 %
# (docs/performance.md, "Profile-guided build"). The flags are added to those of .cargo/config.toml; --native also
# compiles for this machine's processor (the binaries may then not run on an older
# one). Needs `llvm-profdata` of the toolchain's own LLVM: installed with
# `rustup component add llvm-tools` when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

extra=() # rustc flags beyond the project's own
egdb=""
while [ $# -gt 0 ]; do
  case "$1" in
    --native) extra+=("-Ctarget-cpu=native") ;;
    --egdb)
      [ $# -ge 2 ] || { echo "pgo_build: --egdb needs a directory" >&2; exit 2; }
      egdb="$2"
      shift
      ;;
    -h | --help)
      # The header comment, whatever its length.
      awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
      exit 0
      ;;
    *)
      echo "pgo_build: unknown argument '$1' (usage: tools/pgo_build.sh [--native] [--egdb DIR])" >&2
      exit 2
      ;;
  esac
  shift
done
if [ -n "$egdb" ] && [ ! -d "$egdb" ]; then
  echo "pgo_build: --egdb $egdb is not a directory" >&2
  exit 2
fi

host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
  echo "pgo_build: installing llvm-tools (llvm-profdata) with rustup"
  rustup component add llvm-tools >/dev/null 2>&1 || rustup component add llvm-tools-preview
fi
if [ ! -x "$profdata" ]; then
  echo "pgo_build: no llvm-profdata at $profdata; install the toolchain's llvm-tools" >&2
  exit 1
fi

root=$(pwd)
data="$root/target/pgo-data"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$data"
mkdir -p "$data"

step() { echo "pgo_build: [$1/4] $2"; }

# Cargo joins `--config` arrays to the files' (RUSTFLAGS would replace
# .cargo/config.toml's target CPU); rustc keeps the last of repeated flags.
toml_string() {
  local s=${1//\\/\\\\}
  printf '"%s"' "${s//\"/\\\"}"
}
build() { # TARGET_DIR FLAG…
  local dir=$1 list="" f
  shift
  for f in "${extra[@]}" "$@"; do list+="${list:+, }$(toml_string "$f")"; done
  cargo build --release --quiet --config "target.$host.rustflags=[$list]" \
    --target-dir "$dir" --bin damas --bin damas-egdb
}

step 1 "instrumented build (target/pgo-gen)"
build target/pgo-gen "-Cprofile-generate=$data"
gen="$root/target/pgo-gen/release"

step 2 "workload (about a minute)"
export LLVM_PROFILE_FILE="$data/damas-%p-%m.profraw"
run() { "$@" >/dev/null; }
run "$gen/damas" analyze --depth 19 --eval material
run "$gen/damas" analyze --depth 17
n=0
while IFS= read -r fen && [ $n -lt 12 ]; do
  case "$fen" in '' | '#'*) continue ;; esac
  run "$gen/damas" analyze --fen "$fen" --depth 14 --eval material
  run "$gen/damas" analyze --fen "$fen" --depth 13
  n=$((n + 1))
done <data/positions/middlegame.fen
run "$gen/damas" match --engine1 "time=0.05" --engine2 "time=0.05,eval=material" \
  --games 4 --opening-plies 6 --seed 1 --quiet
run "$gen/damas" perft --depth 10
run "$gen/damas-egdb" build --pieces 4 --dir "$work/egdb" --quiet
run "$gen/damas-egdb" verify --dir "$work/egdb" --quiet
if [ -n "$egdb" ]; then
  run "$gen/damas" analyze --fen "B:Wa3,c3,e3,Kg1:Bb6,d6,Kh8" --depth 24 --egdb "$egdb" --eval material
fi
unset LLVM_PROFILE_FILE

step 3 "merging the profiles"
"$profdata" merge -o "$data/merged.profdata" "$data"/*.profraw

step 4 "optimised build (target/pgo)"
build target/pgo "-Cprofile-use=$data/merged.profdata"
echo "pgo_build: target/pgo/release/damas and target/pgo/release/damas-egdb"
