#!/bin/sh
# A job that writes its own log, truncates it mid-run and writes it anew, then rotates it.
log="$1"
: > "$log"
for i in $(seq 1 30); do echo "phase one: step $i of 30" >> "$log"; sleep 0.03; done
: > "$log"
for i in $(seq 1 20); do echo "phase two (after truncation): step $i" >> "$log"; sleep 0.03; done
mv "$log" "$log.1"
for i in $(seq 1 10); do echo "phase three (new file after rotation): step $i" >> "$log"; sleep 0.03; done
echo "done: 3 phases" >> "$log"
