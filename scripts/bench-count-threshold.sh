#!/usr/bin/env bash
# The exact engine's first read of a small log, counted lazily and whole, in instructions
# (callgrind), beside the process start of `bgtail --version`: the data behind
# bgtail::limits::COUNT_VIEWS_UP_TO. Usage: scripts/bench-count-threshold.sh [KIB ...]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
cargo build --release -q -p bgtail-cli
bench=$(cargo bench -p bgtail --bench count_cost --no-run 2>&1 |
  sed -n 's/.*Executable .*(\(.*count_cost-[^)]*\)).*/\1/p' | tail -1)
[ -x "$bench" ] || { echo "the count_cost bench did not build" >&2; exit 1; }
instructions() { # command... → total instructions
  local out; out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1
  awk '/^summary:/ {print $2}' "$out"; rm -f "$out"
}
start=$(instructions target/release/bgtail --version)
echo "process start (bgtail --version): $start instructions"
echo "| view | lazy | whole | whole − lazy | (whole − lazy) / process start |"
echo "|---|---|---|---|---|"
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(16 32 64 128 256 512 1024)
logs=$(mktemp -d); trap 'rm -rf "$logs"' EXIT
for kib in "${sizes[@]}"; do
  log="$logs/job-$kib.log"
  # yes ends on SIGPIPE when head has enough: not a failure.
  { yes "a line of a build's log, forty-eight bytes long" || true; } | head -c $((kib * 1024)) > "$log"
  lazy=$(BGTAIL_COUNT_LOG=$log BGTAIL_COUNT_MODE=lazy instructions "$bench")
  whole=$(BGTAIL_COUNT_LOG=$log BGTAIL_COUNT_MODE=whole instructions "$bench")
  awk -v k="$kib" -v l="$lazy" -v w="$whole" -v s="$start" \
    'BEGIN { printf "| %d KiB | %d | %d | %d | %.2f |\n", k, l, w, w - l, (w - l) / s }'
done
