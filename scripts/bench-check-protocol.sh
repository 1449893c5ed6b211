#!/usr/bin/env bash
# States per second of the model checker over an engine in another process, side by side in
# one run with the same engine in process: the exact engine (in process, and served with
# snapshot/restore) at a reduced CI bound, and the shipped engine (in process, served) and
# pi-bgrun's own code (through node, states rebuilt by replaying the path from a reset) at the
# cap bound. Prints each check's first line and its rebuild/request figures.
#
#   scripts/bench-check-protocol.sh    (after cargo build --release and npm ci at the root)
set -uo pipefail
cd "$(dirname "$0")/.."
bin=target/release/bgtail
checkout=${PI_BGRUN_CHECKOUT:-${BGTAIL_SHARED:-../shared}/upstream/pi-bgrun-0.7.1}
ci=(--bound ci --max-lines 3 --max-reads 2)
run() { "$bin" check "$@" | grep -E "engine, bound|rebuilt"; }
run --engine exact "${ci[@]}"
run --engine "cmd:$bin serve --engine exact --limits model" "${ci[@]}"
run --engine shipped --bound cap
run --engine "cmd:$bin serve --engine shipped --limits model" --bound cap
run --engine "cmd:node adapters/pi-bgrun/main.mjs $checkout" --bound cap
