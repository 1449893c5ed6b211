// bgtail's trace format as the node adapters read it.

import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { TraceError, readTrace, traceFiles, writeBytes } from "../trace.mjs";

function scratch() {
  return mkdtempSync(join(tmpdir(), "bgtail-common-"));
}

function file(dir, name, text) {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const HEADER = JSON.stringify({ bgtail_trace: 1, name: "t" });

test("a trace is its header and its events, each with its line number and raw text", () => {
  const dir = scratch();
  const raw = '{"event":"append","text":"a\\n"}';
  const path = file(dir, "t.jsonl", `${HEADER}\n\n${raw}\n`);
  const trace = readTrace(path);
  assert.equal(trace.header.value.name, "t");
  assert.deepEqual(trace.events.map((e) => [e.line, e.raw]), [[3, raw]]);
});

test("each fault names the file and the line", () => {
  const dir = scratch();
  const cases = [
    ["empty.jsonl", "", /empty\.jsonl:1: empty trace/],
    ["json.jsonl", `${HEADER}\n{nope`, /json\.jsonl:2: not JSON/],
    ["version.jsonl", '{"bgtail_trace":2}', /version\.jsonl:1: trace format version 2 is not supported/],
    ["event.jsonl", `${HEADER}\n{"event":"explode"}`, /event\.jsonl:2: unknown event "explode"/],
  ];
  for (const [name, text, message] of cases) {
    assert.throws(() => readTrace(file(dir, name, text)), (err) => err instanceof TraceError && message.test(err.message));
  }
});

test("a write gives exactly one of text and base64", () => {
  assert.deepEqual(writeBytes({ text: "é" }, "t", 2), Buffer.from("é"));
  assert.deepEqual(writeBytes({ base64: "AP8=" }, "t", 2), Buffer.from([0, 255]));
  assert.throws(() => writeBytes({ text: "a", base64: "YQ==" }, "t", 2), /t:2: give exactly one/);
  assert.throws(() => writeBytes({}, "t", 2), /t:2: give exactly one/);
});

test("trace files are found below folders, sorted, and a missing path is named", () => {
  const dir = scratch();
  mkdirSync(join(dir, "sub"));
  file(dir, "b.jsonl", HEADER);
  file(dir, "a.jsonl", HEADER);
  file(dir, "notes.txt", "");
  file(join(dir, "sub"), "c.jsonl", HEADER);
  const found = traceFiles([dir]).map((p) => p.slice(dir.length + 1));
  assert.deepEqual(found, ["a.jsonl", "b.jsonl", join("sub", "c.jsonl")]);
  assert.throws(() => traceFiles([join(dir, "gone")]), /gone: no such file or directory/);
});
