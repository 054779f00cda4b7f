#!/usr/bin/env bash
# Checks review's blunder marks against a deeper review.
#
# Plays GAMES engine-vs-engine games at SECONDS per move from the FMJD ballots
# with `damas match`, reviews every game with `damas review` at its default
# budget and at `--depth DEPTH`, and lists every move marked a blunder (`??`)
# at the default budget that the deep review does not mark at least a mistake
# (`?` or `??`). Exits 1 if there is any such move.
#
# Usage: tools/review_check.sh [WORKDIR]
#   WORKDIR keeps games.pdn and the reviews (default: a new temporary
#   directory); an unfinished games.pdn there is resumed with `match --resume`.
# Environment: DAMAS (binary, default target/release/damas), GAMES (20),
#   SECONDS_PER_MOVE (0.1), DEPTH (16).
set -euo pipefail

damas=${DAMAS:-target/release/damas}
games=${GAMES:-20}
seconds=${SECONDS_PER_MOVE:-0.1}
depth=${DEPTH:-16}
work=${1:-$(mktemp -d)}
mkdir -p "$work"
pdn=$work/games.pdn

if [[ ! -x $damas ]]; then
    echo "review_check: no damas binary at $damas (build with cargo build --release)" >&2
    exit 2
fi

resume=()
[[ -s $pdn ]] && resume=(--resume)
"$damas" match --engine1 "time=$seconds" --engine2 "time=$seconds" \
    --games "$games" --openings fmjd --pdn "$pdn" --quiet "${resume[@]}" >"$work/match.log"

played=$(grep -c '^\[Result ' "$pdn" || true)
if ((played < games)); then
    echo "review_check: $pdn holds $played games, expected $games" >&2
    exit 2
fi

# One line per reviewed move: `NUMBER MOVE MARK` (MARK `-` when unmarked).
moves_of() {
    awk '$1 ~ /^[0-9]+\.(\.\.)?$/ && NF >= 2 {
        move = $2; mark = move
        sub(/[?!]+$/, "", move)
        mark = substr(mark, length(move) + 1)
        if (mark == "") mark = "-"
        print $1, move, mark
    }' "$1"
}

reviewed=0 blunders=0 disagreements=0
report=$work/disagreements.txt
: >"$report"
for ((g = 1; g <= games; g++)); do
    budget=$work/review-$g-budget.txt
    deep=$work/review-$g-depth$depth.txt
    "$damas" review --game "$g" "$pdn" >"$budget"
    "$damas" review --game "$g" --depth "$depth" "$pdn" >"$deep"
    moves_of "$budget" >"$budget.moves"
    moves_of "$deep" >"$deep.moves"
    if ! cmp -s <(cut -d' ' -f1,2 "$budget.moves") <(cut -d' ' -f1,2 "$deep.moves"); then
        echo "review_check: game $g: the two reviews list different moves" >&2
        exit 2
    fi
    while read -r number move mark deep_mark; do
        reviewed=$((reviewed + 1))
        [[ $mark == '??' ]] || continue
        blunders=$((blunders + 1))
        if [[ $deep_mark != '?' && $deep_mark != '??' ]]; then
            disagreements=$((disagreements + 1))
            echo "game $g: $number $move marked ?? at the default budget, $deep_mark at depth $depth" |
                tee -a "$report"
        fi
    done < <(paste -d' ' "$budget.moves" <(cut -d' ' -f3 "$deep.moves"))
done

echo "games $games, moves reviewed $reviewed, blunders at the default budget $blunders," \
    "not at least a mistake at depth $depth: $disagreements (reviews in $work)"
((disagreements == 0))
