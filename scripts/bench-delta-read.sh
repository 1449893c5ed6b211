#!/usr/bin/env bash
# What a delta read costs the exact engine, in bytes read and instructions, for each `bgtail`
# binary named: side by side, one run (callgrind counts are the same run to run).
#
#   scripts/bench-delta-read.sh target/release/bgtail [OTHER/bgtail …]
#
# The log: 60 lines of 82 bytes (longer than the 4 KiB head probe) ending in the partial line
# `progress 10%`, read once with `--running`. Then two reads are counted: after the partial
# line is completed and two lines more are written (`grown`), and a poll with nothing new
# (`poll`). Instructions are those of the engine's read alone (`--toggle-collect` on
# `ExactEngine::read`), not the process's start; bytes are the reply's `bytes_read`.
set -euo pipefail
[ $# -gt 0 ] || { sed -n '2,11p' "$0"; exit 2; }
command -v valgrind > /dev/null || { echo "bench-delta-read: valgrind is needed" >&2; exit 2; }
printf '%-40s %-6s %10s %14s\n' binary read bytes_read instructions
for bin in "$@"; do
  dir=$(mktemp -d)
  python3 - "$dir/job.log" <<'PY'
import sys
with open(sys.argv[1], 'w') as f:
    for i in range(1, 61):
        f.write('%04d ' % i + 'x' * 77 + '\n')
    f.write('progress 10%')
PY
  "$bin" read --state "$dir/state.json" --running --json "$dir/job.log" > /dev/null
  printf ' done\n0062 more\n0063 more\n' >> "$dir/job.log"
  for step in grown poll; do
    valgrind --tool=callgrind --toggle-collect='*ExactEngine as bgtail::interface::api::Engine>::read*' \
      --callgrind-out-file="$dir/cg.$step" \
      "$bin" read --state "$dir/state.json" --running --json "$dir/job.log" > "$dir/out.$step" 2> "$dir/vg.$step"
    ir=$(awk '/Collected/ {print $NF}' "$dir/vg.$step")
    bytes=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["bytes_read"])' "$dir/out.$step")
    printf '%-40s %-6s %10s %14s\n' "$bin" "$step" "$bytes" "$ir"
  done
  rm -rf "$dir"
done
