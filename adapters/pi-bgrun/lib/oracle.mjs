// Oracle mode: replays a trace's log on a real file and asks the checkout's real bgtail every
// read, filling the read's `expect` with its reply. The same events mean what they mean to
// bgtail's own replay (`impl/src/checker/replay.rs`): an append writes at the end, `truncate` cuts the
// same file, `rewrite` rewrites the same file, `replace` renames another file over the path,
// `remove` deletes the file (the next append or rewrite makes a new one), and `exit` appends
// the wrapper's exit marker.

import { appendFileSync, existsSync, renameSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { newInstance } from "./host.mjs";
import { scratchDir } from "./load.mjs";
import { TraceError, readTrace, writeBytes } from "../../common/trace.mjs";

/** Returns the trace at `path` as JSON Lines text, every read's `expect` upstream's reply. */
export async function fillTrace(factory, path) {
  const { header, events } = readTrace(path);
  refuseWhatUpstreamCannotRun(header, path);
  const id = header.value.job_id ?? "job-1-1";
  const tracePath = header.value.log_path ?? "/jobs/job-1-1.log";
  const dir = scratchDir("bgtail-oracle-");
  try {
    const log = logFile(dir, id);
    writeFileSync(log, "");
    const tool = newInstance(factory, { jobsDir: dir, cwd: dir });
    const out = [header.raw];
    for (const e of events) {
      const ev = e.value;
      if (ev.event === "read") {
        const reply = await tool.read(params(id, ev));
        out.push(JSON.stringify({ ...ev, expect: expectation(reply, tracePath) }));
      } else {
        apply(ev, log, dir, path, e.line);
        out.push(e.raw);
      }
    }
    return out.join("\n") + "\n";
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Where the job's log lives: `<jobs dir>/<id>.log`, where the checkout looks for it. An id that
 * cannot name a file there (a path, `..`, a name too long) is one upstream refuses before it
 * looks; its log is kept beside, where a read that did look would not find it.
 */
function logFile(dir, id) {
  const name = `${id}.log`;
  const plain = id !== "" && basename(name) === name && !id.includes("..") && Buffer.byteLength(name) <= 255;
  return join(dir, plain ? name : "refused-id.log.unread");
}

/** Upstream's limits are compiled in and 0.7.1 has no running gate: such traces are refused. */
function refuseWhatUpstreamCannotRun(header, path) {
  if (header.value.limits) {
    throw new TraceError(path, header.line, "the trace sets its own limits; pi-bgrun's are compiled in");
  }
  if (header.value.running_gate) {
    throw new TraceError(path, header.line, "the trace gates running jobs (0.8.0); this checkout is read as 0.7.x");
  }
}

/** bgtail's parameters for a read event, passed as the trace has them (a `null` stays null). */
function params(id, ev) {
  const p = { id };
  for (const key of ["lines", "raw", "bytes"]) {
    if (key in ev) p[key] = ev[key];
  }
  return p;
}

/**
 * The read's `expect`: the reply as the agent saw it, with the real log path replaced by the
 * trace's and lone surrogates (which UTF-8 JSON cannot carry) written as U+FFFD, as pi does
 * when it sends the reply on.
 */
function expectation(reply, tracePath) {
  if ("thrown" in reply) return { text: reply.thrown.toWellFormed(), is_error: true };
  const real = reply.details.logPath;
  const text = typeof real === "string" ? reply.text.replaceAll(real, tracePath) : reply.text;
  const details = wellFormed({ ...reply.details, ...(typeof real === "string" ? { logPath: tracePath } : {}) });
  const expect = { text: text.toWellFormed(), details };
  if (reply.isError) expect.is_error = true;
  return expect;
}

function wellFormed(value) {
  if (typeof value === "string") return value.toWellFormed();
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wellFormed(v)]));
  }
  return value;
}

/** Applies one log event to the real file at `log`. */
function apply(ev, log, dir, source, line) {
  switch (ev.event) {
    case "append":
      appendFileSync(log, writeBytes(ev, source, line));
      break;
    case "truncate":
      // truncate(2) of a deleted log has nothing to cut.
      if (existsSync(log)) truncateSync(log, Math.min(Number(ev.len), statSync(log).size));
      break;
    case "rewrite":
      // Same file: opened with O_TRUNC and written again.
      writeFileSync(log, writeBytes(ev, source, line));
      break;
    case "replace": {
      const next = join(dir, "replacement.tmp");
      writeFileSync(next, writeBytes(ev, source, line));
      renameSync(next, log);
      break;
    }
    case "remove":
      if (existsSync(log)) unlinkSync(log);
      break;
    case "exit":
      if (ev.marker !== false) appendFileSync(log, `\n__BGRUN_EXIT__=${ev.code}\n`);
      break;
    case "other_tool":
      break;
  }
}
