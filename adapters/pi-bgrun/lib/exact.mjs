// pi-bgrun's `bgtail` reading through bgtail's exact engine (packages/bgtail-exact): the
// change a pi-bgrun user gets #28 fixed by, written as bgtail's own code. `load.mjs` routes the
// checkout's `bgtailCore` here and hands over the checkout's own functions, so that the tool's
// registration and schema, its id checks, the job registry's path rule, the config's window
// ceiling and the error replies all stay upstream's; only the reading is the engine's.
//
// This module is bundled into the checkout's extension (it is imported from the entry by the
// loader), so each extension instance — each pi session — gets its own bookmarks, as
// upstream's `tailBookmarks` map is per instance.

import { ExactEngine, checkId, emptyState, snapshotState } from "../../../packages/bgtail-exact/dist/index.js";

/**
 * What passes between bgtail's harness and a read, beside the tool's parameters and result.
 * - `running` stands in for the job registry: the harness's jobs are log files no bgrun call
 *   started, so pi-bgrun's `jobs` map has no record of them. The protocol mode sets it before
 *   each read from the harness's `running`; `null` leaves it to the registry (see `jobRuns`).
 * - `shown` is the engine's claim of which lines the last reply's text carries, as byte
 *   ranges (`[]` for none): the harness hands it to the judge, which checks it against the
 *   text, so that lines printing the same are told apart as the engine tells them apart.
 *   The agent sees only the text and the details.
 * - `bookmarks` reads and replaces the bookmarks of the newest extension instance (the one the
 *   protocol mode serves): `get()` their snapshot, `set(state)` them from one the caller has
 *   checked with the package's `parseState`. They are all a
 *   read's outcome depends on beside the log: the checkout's `jobs` map holds no record of the
 *   harness's jobs, and its path rule and window ceiling are the same for every read.
 */
export const harnessLink = { running: null, shown: [], bookmarks: null };

/**
 * The `bgtailCore` of one extension instance. `upstream` holds the checkout's own functions:
 * `resolveLogForJob(id, tool, ctx, window)`, `logReadError(id, path, native)`,
 * `supportsNativeJobSnapshot(ctx)`, `readWindowMax()` and `jobRecord(id)` (its `jobs` map).
 */
export function exactBgtailCore(upstream) {
  // Every bookmark of this extension instance, as plain JSON.
  let state = emptyState();
  harnessLink.bookmarks = {
    get: () => snapshotState(state),
    set: (checked) => {
      state = checked;
    },
  };
  return async function bgtailCore(params, ctx) {
    harnessLink.shown = [];
    const id = params.id;
    // Upstream's checks and messages: `bgtail: id is required` for any falsy id (upstream
    // tests `!id`), then `bgtail: invalid job id …`.
    checkId(id || "");
    // A window of 0 bytes: the checkout resolves the path and probes the log as it would for a
    // read, and reads none of it; the engine reads what it needs by position.
    const resolved = upstream.resolveLogForJob(id, "bgtail", ctx, 0);
    if ("errorText" in resolved) return errorResult(id, resolved.logPath, resolved.errorText, resolved.notFound);
    const job = { id, path: resolved.logPath };
    // The ceiling upstream clamps `bytes` to is its config's: the engine clamps to the same.
    const engine = new ExactEngine({ viewMax: upstream.readWindowMax() });
    const reply = engine.readFile(state, job, request(params, jobRuns(upstream.jobRecord(id))));
    if (reply.isError) {
      // The log went away between the probe and the read: upstream's words for that.
      const text = upstream.logReadError(id, job.path, upstream.supportsNativeJobSnapshot(ctx));
      return errorResult(id, job.path, text, reply.details.notFound === true);
    }
    harnessLink.shown = reply.shown.map((line) => ({ offset: line.offset, end: line.end }));
    return { content: [{ type: "text", text: reply.text }], details: reply.details };
  };
}

/**
 * The engine's request from the tool's parameters. pi-bgrun 0.7.1's tool has no `peek` and no
 * running-job gate, so every read is a peek; `running` only decides whether an unterminated
 * last line may still grow (then it is shown, and not recorded as seen).
 */
function request(params, running) {
  return {
    // pi hands a `null` through; JavaScript's arithmetic makes it 0, as upstream's floor does.
    lines: params.lines === null ? 0 : params.lines,
    raw: Boolean(params.raw),
    bytes: params.bytes,
    peek: true,
    running,
  };
}

/**
 * Whether the job may still write. A job this pi process started runs until its record has an
 * exit code. A log with no record (another pi process's job, a log left on disk) is taken as
 * running: the engine still sees the wrapper's `__BGRUN_EXIT__` line when it exited, and until
 * then an unfinished last line is shown without being counted as seen.
 */
function jobRuns(record) {
  if (typeof harnessLink.running === "boolean") return harnessLink.running;
  if (record === undefined) return true;
  return record.exitCode === undefined;
}

/** Upstream's error reply for a log it cannot read: its text, its three details, `isError`. */
function errorResult(id, logPath, text, notFound) {
  return {
    content: [{ type: "text", text }],
    details: { id, logPath, notFound },
    isError: true,
  };
}
