#!/usr/bin/env bash
# cargo-mutants over the exact engine's core with the model as the test
# (the test selection and timeouts are in .cargo/mutants.toml), in one run so the baseline is
# built and tested once. Results go to mutants/mutants.out/ as they come (caught.txt,
# missed.txt, unviable.txt, timeout.txt, outcomes.json).
#
#   cargo install cargo-mutants cargo-nextest   # v27.1.0 and 0.9 were used
#   scripts/mutants.sh                          # exact/, condense.rs, view.rs (~hours)
#   scripts/mutants.sh impl/src/exact/index.rs  # the files named
#
# cargo-mutants builds a copy of the workspace in a temporary directory; the copy gets a
# `shared` beside it, as the tests that read ../shared expect of a checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=(impl/src/exact/coverage.rs impl/src/exact/index.rs impl/src/condense.rs impl/src/view.rs
         impl/src/exact/mod.rs impl/src/exact/scan.rs impl/src/exact/render.rs)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$(cd .. && pwd)/shared" "$tmp/shared"
args=()
for file in "${files[@]}"; do args+=(-f "$file"); done
# Exit 2 is a missed mutant and 3 a timeout: results, not failures of the run.
status=0
TMPDIR=$tmp cargo mutants --package bgtail "${args[@]}" --no-shuffle -o mutants || status=$?
case $status in
  0|2|3) echo "results: mutants/mutants.out (caught.txt, missed.txt, unviable.txt, timeout.txt)" ;;
  *) echo "cargo mutants failed (exit $status): see mutants/mutants.out/log" >&2; exit "$status" ;;
esac
