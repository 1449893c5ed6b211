#!/usr/bin/env node
// An MCP server's log tools behind bgtail's engine-under-test protocol, with the protocol's
// official TypeScript SDK as the client:
//
//   node adapters/mcp/main.mjs -- COMMAND [ARGS…]      e.g. -- bgtail mcp
//
// The adapter starts COMMAND as an MCP server over stdio, in a jobs folder of its own (it sets
// BGTAIL_JOBS_DIR), and answers each protocol read with the server's tools: `bgattach` the
// harness's log once, with the pid of a stand-in writer that lives exactly while the harness
// says the job runs, then `bgtail` with the read's `lines`, `raw` and `bytes`. The reply is the
// tool's text, and its `structuredContent.shown` the byte ranges the text carries.
//
// `snapshot` and `restore` hand out and put back the server's bookmarks (`bookmarks.state` in
// the jobs folder, as text, without the line index: see `snapshot`); `reset` forgets them.
// A server with `bgattach` and `bgtail` tools that keeps no such file is still read and
// judged: say so with `--no-snapshot`.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { error, serveEut } from "../common/eut.mjs";

const usage = "usage: node adapters/mcp/main.mjs [--no-snapshot] -- COMMAND [ARGS…]";
const fail = (message) => {
  process.stderr.write(`bgtail-adapter-mcp: ${message}\n${usage}\n`);
  process.exit(2);
};

const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
if (dash < 0 || dash === argv.length - 1) fail("the MCP server's command follows `--`");
const options = argv.slice(0, dash);
const [command, ...args] = argv.slice(dash + 1);
for (const o of options) if (o !== "--no-snapshot") fail(`unknown option ${o}`);
const snapshots = !options.includes("--no-snapshot");

let sdk;
try {
  sdk = {
    ...(await import("@modelcontextprotocol/sdk/client/index.js")),
    ...(await import("@modelcontextprotocol/sdk/client/stdio.js")),
  };
} catch (err) {
  if (err?.code !== "ERR_MODULE_NOT_FOUND") throw err;
  fail("the MCP SDK is missing: run `npm ci` at the repository's root");
}

const jobsDir = mkdtempSync(join(tmpdir(), "bgtail-mcp-jobs-"));
const stateFile = join(jobsDir, "bookmarks.state");
process.on("exit", () => rmSync(jobsDir, { recursive: true, force: true }));

const client = new sdk.Client({ name: "bgtail-adapter-mcp", version: "0.1.0" });
await client.connect(
  new sdk.StdioClientTransport({
    command,
    args,
    env: { ...process.env, BGTAIL_JOBS_DIR: jobsDir },
    stderr: "inherit",
  }),
);
const server = client.getServerVersion() ?? { name: command, version: "unknown" };

/** A tool's result, or an `internal` error naming the tool and what it said. */
async function tool(name, args) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
  return { result, text };
}

/**
 * A stand-in for the job's writer: a process that lives while the harness says the job runs.
 * The server is told its pid, and so sees the job end when the harness's does. A job that has
 * already ended when first read gets a stand-in that has ended too.
 */
const writers = new Map(); // log path → { child, exited: Promise }
async function startWriter(path, running) {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { stdio: "ignore" });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  writers.set(path, { child, exited });
  if (!running) await stopWriter(path);
  return child.pid;
}
async function stopWriter(path) {
  const w = writers.get(path);
  if (!w) return;
  writers.delete(path);
  w.child.kill("SIGKILL");
  await w.exited;
}
process.on("exit", () => writers.forEach((w) => w.child.kill("SIGKILL")));

/** The server's id for the harness's log, attached with a writer that matches `running`. */
const ids = new Map(); // log path → id
async function jobFor(path, running) {
  if (!running) await stopWriter(path);
  const attached = ids.has(path);
  if (attached && (!running || writers.has(path))) return ids.get(path);
  const pid = await startWriter(path, running);
  const { result, text } = await tool("bgattach", { path, pid });
  if (result.isError) throw new Error(`bgattach: ${text}`);
  ids.set(path, result.structuredContent.id);
  return result.structuredContent.id;
}

/**
 * pi-bgrun's refusal of the harness's job id, when it gives one (docs/pi-bgrun-0.7.1.md §6):
 * the MCP tools never see that id — the server names its own jobs — so the adapter refuses
 * what the engine would, with the engine's words.
 */
function refusal(jobId) {
  if (jobId === "") return "bgtail: id is required";
  const invalid = jobId.length > 200 || /[\/\\]|\.\.|[\u0000-\u001f\u007f-\u009f]/.test(jobId);
  return invalid ? `bgtail: invalid job id ${JSON.stringify(jobId)}` : null;
}

/**
 * The protocol's `shown` (a range per line) from the tool's spans of adjacent lines, each split
 * at its newlines in the log as it is now (the harness changes it only between reads).
 */
function lineRanges(path, spans) {
  if (spans.length === 0) return [];
  const log = readFileSync(path);
  const out = [];
  for (const { offset, end, partial } of spans) {
    if (partial) {
      out.push({ offset, end });
      continue;
    }
    let start = offset;
    for (let i = offset; i < end; i++) {
      if (log[i] === 10) {
        out.push({ offset: start, end: i + 1 });
        start = i + 1;
      }
    }
    // The last line of an exited job's log may have no newline, and is complete all the same.
    if (start < end) out.push({ offset: start, end });
  }
  return out;
}

const adapter = {
  describe() {
    return {
      engine: { name: `mcp:${server.name}`, version: server.version },
      capabilities: { raw: true, bytes: true, shown: true, reset: true, snapshot: snapshots },
      limits: { text_budget: 8000, line_cap: 2000, view_default: 2097152 },
      text_format: "bgtail-exact-1",
    };
  },

  // The protocol's `lines` and `bytes` are pi-bgrun's, as the agent's JSON gave them; the
  // tool's schema takes numbers of 0 or more. Each is sent as the engine takes it: `lines` as
  // upstream's `Math.max(1, Math.floor(lines))` (a null one is 0, so one line); a `bytes` that
  // is not a positive number is the default view, so none is sent.
  async read(request, id) {
    const refused = refusal(request.job_id);
    if (refused) return error(id, "rejected", refused);
    const jobId = await jobFor(request.log_path, request.running !== false);
    const args = { id: jobId };
    if (request.lines !== undefined) args.lines = Math.max(1, Math.floor(request.lines ?? 0));
    if (request.raw) args.raw = true;
    if (typeof request.bytes === "number" && request.bytes > 0) args.bytes = request.bytes;
    const { result, text: served } = await tool("bgtail", args);
    // The reply names the job by the server's id; the harness compares it with its own.
    const text = served.split(jobId).join(request.job_id);
    const shown = lineRanges(request.log_path, result.structuredContent?.shown ?? []);
    return { type: "read_ok", in_reply_to: id, text, details: {}, is_error: Boolean(result.isError), shown };
  },

  reset(id) {
    rmSync(stateFile, { force: true });
    return { type: "reset_ok", in_reply_to: id };
  },

  // The state file's text is handed out as a string, never parsed: its fingerprints are
  // 64-bit integers, which a JavaScript number would round. The line index, a cache that is
  // no part of a state, is cut from the text, so that equal states give equal snapshots; the
  // server rebuilds it.
  snapshot(request, id) {
    if (!snapshots) return error(id, "not_supported", "--no-snapshot");
    let text = null;
    try {
      text = readFileSync(stateFile, "utf8").replace(/,"index":\{"marks":\[[^\]]*\]\}/g, "");
    } catch (err) {
      if (err.code !== "ENOENT") throw err;
    }
    return { type: "snapshot_ok", in_reply_to: id, state: text };
  },

  restore(request, id) {
    if (!snapshots) return error(id, "not_supported", "--no-snapshot");
    if (request.state === null) {
      rmSync(stateFile, { force: true });
    } else if (typeof request.state === "string") {
      const tmp = `${stateFile}.restore`;
      writeFileSync(tmp, request.state, { mode: 0o600 });
      renameSync(tmp, stateFile);
    } else {
      return error(id, "malformed", "a snapshot of this adapter is the state file's text");
    }
    return { type: "restore_ok", in_reply_to: id };
  },
};

await serveEut(adapter);
await client.close();
process.exit(0);
