#!/usr/bin/env bash
# Fills corpus/<target>/ with seeds from the project's own inputs: the trace corpus, the
# recorded pi sessions, the protocol page's example session, and state files that
# `bgtail read` wrote for both engines. Run from fuzz/ after `cargo build --release`.
set -euo pipefail
cd "$(dirname "$0")"
bin=../target/release/bgtail
mkdir -p corpus/{trace_parse,pi_session_parse,protocol_message,state_file_decode,engines}
find ../traces -name '*.jsonl' -size -64k -exec cp {} corpus/trace_parse/ \;
# The external inputs (docs/inputs.md): BGTAIL_SHARED, relative to the workspace's root.
shared=${BGTAIL_SHARED:-../shared}
case $shared in /*) ;; *) shared=../$shared ;; esac
i=0
for f in "$shared"/upstream-sessions/*/*.jsonl; do cp "$f" "corpus/pi_session_parse/$((i++)).jsonl"; done
grep -E '^(→|←) ' ../docs/engine-protocol.md | cut -d' ' -f2- | split -l 1 - corpus/protocol_message/example-
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
printf 'line-1\nline-2\n\033[31mred\033[0m\nline-4\n' > "$work/job.log"
for engine in exact shipped; do
  for lines in 1 3 40; do
    "$bin" read "$work/job.log" --state "$work/$engine.state" --engine "$engine" --lines "$lines" > /dev/null
    cp "$work/$engine.state" "corpus/state_file_decode/$engine-$lines.json"
  done
done
echo "seeded: $(ls corpus/* | wc -l) files"
