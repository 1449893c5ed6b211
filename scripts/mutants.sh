#!/usr/bin/env bash
# cargo-mutants over the exact engine's core with the model as the test
# (the test selection and timeouts are in .cargo/mutants.toml), in one run so the baseline is
# built and tested once. Results go to mutants/mutants.out/ as they come (caught.txt,
# missed.txt, unviable.txt, timeout.txt, outcomes.json).
#
#   cargo install cargo-mutants cargo-nextest   # v27.1.0 and 0.9
#   scripts/mutants.sh                          # every file of engines/exact/ and upstream/ (~hours)
#   scripts/mutants.sh impl/src/engines/exact/index.rs  # the files named
#   scripts/mutants.sh --fast [FILE…] [-F RE] [--in-place]
#                                               # without the any-length check, which the
#                                               # induction at N=3 covers, and the 4-line
#                                               # fold-pairs check
#   scripts/mutants.sh --own-tests               # then: the mutants the model missed, against
#                                                # bgtail's own test suite (a timeout is a hang
#                                                # the model saw: no reply)
#   scripts/mutants.sh --corpus [FILE…] [-F RE] [--in-place]
#                                                # the corpus alone: each mutant against
#                                                # `bgtail replay --require contract` over
#                                                # traces/ (results in mutants/corpus/)
#
# cargo-mutants builds a copy of the workspace in a temporary directory, so the external
# inputs (docs/inputs.md) are named by an absolute BGTAIL_SHARED.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
BGTAIL_SHARED=$(cd "${BGTAIL_SHARED:-../shared}" && pwd)
export BGTAIL_SHARED

# run_mutants OUTPUT_DIR ARGS…: cargo mutants exits 2 when a mutant was missed and 3 on a
# timeout — results, not failures of the run.
run_mutants() {
  local out=$1 status=0
  shift
  mkdir -p "$out"
  TMPDIR=$tmp cargo mutants -o "$out" "$@" || status=$?
  case $status in
    0|2|3) echo "results: $out/mutants.out (caught.txt, missed.txt, unviable.txt, timeout.txt)" ;;
    *) echo "cargo mutants failed (exit $status): see $out/mutants.out/log" >&2; exit "$status" ;;
  esac
}

if [ "${1:-}" = --own-tests ]; then
  # The second tier: which of the model's missed mutants bgtail's own tests catch. Exact
  # names from the first run's lists, so nothing it did not test is run here.
  out=mutants/mutants.out
  re=$(python3 -c \
    'import re, sys; print("^(" + "|".join(re.escape(l.strip()) for l in sys.stdin if l.strip()) + ")$")' < "$out/missed.txt")
  [ "$re" != '^()$' ] || { echo "nothing missed in $out"; exit 0; }
  mapfile -t files < <(cut -d: -f1 "$out/missed.txt" | sort -u)
  args=()
  for file in "${files[@]}"; do args+=(-f "$file"); done
  run_mutants mutants/own-tests --no-config --package bgtail --test-package bgtail \
    --test-tool nextest "${args[@]}" -F "$re"
  exit 0
fi

if [ "${1:-}" = --corpus ]; then
  # What a user replaying the corpus would see: the one test that replays every trace through
  # the exact engine with the judge (replay/tests/contract_traces.rs), nothing else.
  shift
  files=() rest=()
  while [ $# -gt 0 ]; do
    case $1 in
      -F) rest+=(-F "$2"); shift 2 ;;
      --in-place) rest+=(--in-place); shift ;;
      *) files+=(-f "$1"); shift ;;
    esac
  done
  [ ${#files[@]} -gt 0 ] || files=(-f 'impl/src/engines/exact/*.rs')
  # cargo-mutants 27.1 runs the baseline with the mutated package's tests, not
  # --test-package's, and finds none of this filter there: the baseline is skipped, and the
  # test it would run is one CI runs on every change. It replays the corpus in about a second,
  # so a mutant still running at 60 s hangs.
  run_mutants mutants/corpus --no-config --package bgtail --test-package bgtail-cli \
    --test-tool nextest --baseline skip --timeout 60 "${files[@]}" "${rest[@]}" -- \
    -E 'test(=contract_traces::the_corpus_keeps_the_contract_through_the_exact_engine)'
  exit 0
fi

config=()
if [ "${1:-}" = --fast ]; then
  # The same config (its exclusions included) with the any-length check and the 4-line
  # fold-pairs check left out of the test. What the first leaves unchecked is only the
  # `sometimes` properties of that world: every state it reaches satisfies the invariant
  # (`model/tests/induction.rs`), whose step checks every `always` property. The second is a
  # 4-line check, left out as the 4-line CI check is: a mutant only it would catch counts as
  # missed here.
  fast=$tmp/mutants-fast.toml
  sed 's/^  "(test(\/^exact_engine::\/) - /&test(=exact_engine::slow::exact_keeps_the_contract_on_every_sequence_of_any_length_up_to_3_lines) - test(=exact_engine::slow::exact_keeps_the_contract_where_a_fold_meets_either_overflow_in_4_lines) - /' \
    .cargo/mutants.toml > "$fast"
  grep -q 'any_length_up_to_3_lines' "$fast" && grep -q 'either_overflow_in_4_lines' "$fast" || { echo "mutants.sh: the test filter moved in .cargo/mutants.toml" >&2; exit 1; }
  config=(--config "$fast")
  shift
fi
files=() rest=()
while [ $# -gt 0 ]; do
  case $1 in
    -F) rest+=(-F "$2"); shift 2 ;;
    # In place, the baseline (the model's tests, minutes) is skipped: the run is of a tree
    # whose tests pass, and the config's minimum timeout is the one that applies.
    --in-place) rest+=(--in-place --baseline skip --timeout 300); shift ;;
    *) files+=("$1"); shift ;;
  esac
done
if [ ${#files[@]} -eq 0 ]; then
  files=(impl/src/engines/exact/*.rs impl/src/upstream/*.rs impl/src/upstream/condense/*.rs)
fi
args=()
for file in "${files[@]}"; do args+=(-f "$file"); done
run_mutants mutants "${config[@]}" --package bgtail "${args[@]}" "${rest[@]}" --no-shuffle
