#!/usr/bin/env bash
# The TypeScript package against the Rust exact engine, side by side in one run:
# - read cost in process: the same generated logs and sequences through both engines
#   (impl/benches/read_cost.rs and packages/bgtail-exact/bench/read_cost.mjs), joined into
#   ratios; the bytes each file source read must be equal, or the join exits 1;
# - reads per second through the engine-under-test protocol (scripts/bench-protocol.sh), with
#   `bgtail serve --engine exact` beside the package's serve.mjs and pi-bgrun reading through it.
#
#   scripts/bench-exact-ts.sh            (BGTAIL_BENCH_SIZES=1,64,1024 for MiB sizes; default 1,64)
# after `cargo build --release` and `npm ci` at the root (which builds the package and installs
# the pi-bgrun adapter's packages).
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${BGTAIL_BENCH_SIZES:-1,64}
# Reads of 20–60 µs are within a collector's pause of each other: 21 runs a figure, on both sides.
export BGTAIL_BENCH_ROUNDS=${BGTAIL_BENCH_ROUNDS:-21}
checkout=${PI_BGRUN_CHECKOUT:-${BGTAIL_SHARED:-../shared}/upstream/pi-bgrun-0.7.1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
test -e packages/bgtail-exact/dist/index.js || { echo "packages/bgtail-exact is not built: npm ci (at the root)" >&2; exit 1; }

echo "## Read cost in process (sizes $sizes MiB)"
BGTAIL_BENCH_PEAK=0 BGTAIL_BENCH_SIZES=$sizes BGTAIL_BENCH_JSON="$work/rust.jsonl" \
  cargo bench -q -p bgtail --bench read_cost > "$work/rust-table.md"
node packages/bgtail-exact/bench/read_cost.mjs --sizes "$sizes" > "$work/ts.jsonl"
node packages/bgtail-exact/bench/join.mjs "$work/rust.jsonl" "$work/ts.jsonl"

echo
echo "## Through the protocol"
scripts/bench-protocol.sh exact "cmd:target/release/bgtail serve --engine exact" \
  "cmd:node packages/bgtail-exact/serve.mjs" "cmd:node adapters/pi-bgrun/main.mjs $checkout --exact"
