#!/usr/bin/env bash
# Reads per second through the engine-under-test protocol, side by side in one run: by
# default the shipped engine in process, served by `bgtail serve`, and pi-bgrun's own code
# through its node adapter; engines given as arguments replace them. Three workloads: 20,000 reads of a 3-line log (the protocol's own cost),
# 5,000 polls of a log growing to 5,000 lines (an agent polling a test run), and a startup
# run of one read (subtracted from the first two).
#
#   scripts/bench-protocol.sh [ENGINE...]   (after cargo build --release and npm ci at the root)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/bgtail
checkout=${PI_BGRUN_CHECKOUT:-${BGTAIL_SHARED:-../shared}/upstream/pi-bgrun-0.7.1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

header='{"bgtail_trace":1,"name":"NAME","source":"hand-written"}'
{ echo "${header/NAME/one-read}"; echo '{"event":"append","text":"a\nb\nc\n"}'; echo '{"event":"read","lines":3}'; } > "$work/one.jsonl"
{ echo "${header/NAME/reads-20000}"; echo '{"event":"append","text":"a\nb\nc\n"}'
  for _ in $(seq 20000); do echo '{"event":"read","lines":3}'; done; } > "$work/reads.jsonl"
{ echo "${header/NAME/polls-5000}"
  for i in $(seq 5000); do echo "{\"event\":\"append\",\"text\":\"test $i ... ok\\n\"}"; echo '{"event":"read","lines":40}'; done; } > "$work/polls.jsonl"

seconds() { local s e; s=$(date +%s.%N); "$bin" replay --quiet --engine "$1" "$2" > /dev/null || true; e=$(date +%s.%N); echo "$e - $s" | bc; }

printf '%-60s %12s %14s %14s\n' engine "startup (s)" "reads/s small" "reads/s polls"
engines=("$@")
[ ${#engines[@]} -gt 0 ] || engines=(shipped "cmd:$bin serve --engine shipped" "cmd:node adapters/pi-bgrun/main.mjs $checkout")
for engine in "${engines[@]}"; do
  start=$(seconds "$engine" "$work/one.jsonl")
  small=$(seconds "$engine" "$work/reads.jsonl")
  polls=$(seconds "$engine" "$work/polls.jsonl")
  printf '%-60s %12.3f %14.0f %14.0f\n' "${engine/$checkout/CHECKOUT}" "$start" \
    "$(echo "20000 / ($small - $start)" | bc -l)" "$(echo "5000 / ($polls - $start)" | bc -l)"
done
