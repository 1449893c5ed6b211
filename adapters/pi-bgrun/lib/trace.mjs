// bgtail's trace format (JSON Lines, version 1; documented in docs/traces.md): read as
// far as this adapter needs to replay a trace, and written back line by line so that every
// line it does not fill stays byte for byte as it was.

import { readFileSync } from "node:fs";

/** A trace that cannot be replayed here: names the file, the line and the reason. */
export class TraceError extends Error {
  constructor(source, line, message) {
    super(`${source}:${line}: ${message}`);
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
