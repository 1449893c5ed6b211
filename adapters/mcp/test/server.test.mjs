// `bgtail mcp` through the official TypeScript SDK's client, as an agent's harness runs it: the
// tool list and its input schemas (compiled with Ajv, JSON Schema 2020-12), a real job read to
// its end with every line once and its exit code, the same across a server restart mid-job.
// `BGTAIL_BIN` names the binary (replay/tests/node_adapters.rs sets it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv2020 from "ajv/dist/2020.js";

const bin = process.env.BGTAIL_BIN;
if (!bin) throw new Error("set BGTAIL_BIN to the bgtail binary (cargo build --release: target/release/bgtail)");

/** A client connected to `bgtail mcp` on `jobs`. */
async function connect(jobs) {
  const client = new Client({ name: "bgtail-node-test", version: "1" });
  await client.connect(new StdioClientTransport({ command: bin, args: ["mcp", "--jobs-dir", jobs], stderr: "inherit" }));
  return client;
}

/** Bursts of short lines, a 70 KB line, and a partial last line the exit completes. */
const JOB =
  "for b in 1 2 3 4; do for i in $(seq 1 500); do echo \"burst $b line $i\"; done; sleep 0.05; done; " +
  "head -c 70000 /dev/zero | tr '\\0' y; echo; printf 'partial at the end'; sleep 0.2; exit 3";

/** The log's complete content lines as "offset-end" (blank and wrapper lines are none). */
function contentLines(bytes) {
  const out = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 10) continue;
    const line = bytes.subarray(start, i).toString("latin1");
    if (line.trim() !== "" && !line.startsWith("__BGRUN_")) out.push(`${start}-${i + 1}`);
    start = i + 1;
  }
  return out;
}

/** Polls `id` until it exited and nothing is owed, widening when a reply says lines wait. */
async function pollToTheEnd(client, id, seen, { maxReads = 2000, stopAfter = Infinity } = {}) {
  let lines = 50;
  for (let n = 0; n < maxReads && n < stopAfter; n++) {
    const r = await client.callTool({ name: "bgtail", arguments: { id, lines } });
    assert.notEqual(r.isError, true, r.content[0].text);
    const s = r.structuredContent;
    const log = readFileSync(s.log);
    for (const span of s.shown) {
      if (span.partial) continue;
      let start = span.offset;
      for (let i = span.offset; i < span.end; i++) {
        if (log[i] === 10) {
          seen.push(`${start}-${i + 1}`);
          start = i + 1;
        }
      }
    }
    const owed = s.counts.left_out > 0 || (s.counts.unseen_above ?? 0) > 0;
    lines = owed ? 1_000_000 : 50;
    if (s.state === "exited" && s.counts.shown === 0 && !s.counts.partial_shown && !owed) return s;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return null;
}

function assertEachLineOnce(log, seen) {
  const expected = contentLines(readFileSync(log));
  assert.equal(expected.length, 4 * 500 + 2);
  assert.equal(new Set(seen).size, seen.length, "no line repeated");
  assert.deepEqual([...seen].sort(), [...expected].sort(), "every line once");
}

test("the tools are listed, each schema compiles, and the reads are annotated read-only", async () => {
  const jobs = mkdtempSync(join(tmpdir(), "bgtail-mcp-node-"));
  const client = await connect(jobs);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), ["bgattach", "bgkill", "bgrun", "bgstatus", "bgtail"]);
  const ajv = new Ajv2020({ strict: false });
  for (const t of tools) {
    const validate = ajv.compile(t.inputSchema);
    const valid = { bgrun: { command: "true" }, bgtail: { id: "a-1-1", lines: 3 }, bgstatus: {}, bgkill: { id: "a-1-1" }, bgattach: { path: "/x" } };
    assert.ok(validate(valid[t.name]), `${t.name}: ${JSON.stringify(validate.errors)}`);
    assert.equal(t.annotations.readOnlyHint === true, ["bgtail", "bgstatus"].includes(t.name), t.name);
  }
  assert.equal(ajv.compile(tools.find((t) => t.name === "bgtail").inputSchema)({ lines: 3 }), false, "id is required");
  await client.close();
  rmSync(jobs, { recursive: true, force: true });
});

test("a real job is read to its end, every line once, its exit code said, across a restart", async () => {
  const jobs = mkdtempSync(join(tmpdir(), "bgtail-mcp-node-"));
  let client = await connect(jobs);
  const started = await client.callTool({ name: "bgrun", arguments: { command: JOB } });
  const { id, log } = started.structuredContent;
  const seen = [];
  await pollToTheEnd(client, id, seen, { stopAfter: 4 });
  await client.close();
  client = await connect(jobs);
  const last = await pollToTheEnd(client, id, seen);
  assert.ok(last, "the job ended and was drained");
  assert.equal(last.exit_code, 3);
  assertEachLineOnce(log, seen);
  const status = await client.callTool({ name: "bgstatus", arguments: { id } });
  assert.match(status.content[0].text, /exited with code 3/);
  await client.close();
  rmSync(jobs, { recursive: true, force: true });
});
