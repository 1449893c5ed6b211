// bgtail's trace format (JSON Lines, version 1; documented in docs/traces.md): read as
// far as a node adapter needs to replay a trace, and written back line by line so that every
// line it does not fill stays byte for byte as it was.

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** A trace that cannot be replayed here: names the file, the line (when one) and the reason. */
export class TraceError extends Error {
  constructor(source, line, message) {
    super(line ? `${source}:${line}: ${message}` : `${source}: ${message}`);
  }
}

const EVENTS = new Set(["append", "truncate", "rewrite", "replace", "remove", "exit", "read", "other_tool"]);

/**
 * Parses a trace file into `{header, lines}`, where each entry of `lines` is
 * `{raw, value, line}`: the text as it was, the parsed event, and its 1-based line number.
 */
export function readTrace(path) {
  const text = readFileSync(path, "utf8");
  const entries = [];
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    let value;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      throw new TraceError(path, i + 1, `not JSON: ${err.message}`);
    }
    entries.push({ raw, value, line: i + 1 });
  });
  if (entries.length === 0) throw new TraceError(path, 1, "empty trace: the first line must be its header");
  const [head, ...events] = entries;
  const header = head.value;
  if (header?.bgtail_trace !== 1) {
    throw new TraceError(path, head.line, `trace format version ${header?.bgtail_trace} is not supported (this adapter reads version 1)`);
  }
  for (const e of events) {
    if (!EVENTS.has(e.value?.event)) {
      throw new TraceError(path, e.line, `unknown event ${JSON.stringify(e.value?.event)}`);
    }
  }
  return { header: head, events };
}

/** The bytes an append, rewrite or replace event writes. */
export function writeBytes(event, source, line) {
  const hasText = typeof event.text === "string";
  const hasB64 = typeof event.base64 === "string";
  if (hasText === hasB64) throw new TraceError(source, line, "give exactly one of `text` and `base64`");
  return hasText ? Buffer.from(event.text, "utf8") : Buffer.from(event.base64, "base64");
}

/** Every .jsonl file named or below a named folder, sorted within each folder. */
export function traceFiles(inputs) {
  const out = [];
  const walk = (p) => {
    let st;
    try {
      st = statSync(p);
    } catch (err) {
      throw new TraceError(p, null, err.code === "ENOENT" ? "no such file or directory" : err.message);
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) {
        const child = join(p, name);
        if (statSync(child).isDirectory() || name.endsWith(".jsonl")) walk(child);
      }
    } else out.push(p);
  };
  inputs.forEach(walk);
  return out;
}
