// Protocol mode: the checkout's real bgtail behind bgtail's engine-under-test protocol
// (`bgtail-eut` v1, docs/engine-protocol.md in the bgtail repository). One JSON request per line
// on stdin, exactly one reply per line on stdout, matched by `in_reply_to`.
//
// pi-bgrun finds job ID's log at `<jobs dir>/ID.log`: the harness names the log that way, and
// each read points PI_BGRUN_DIR at the log's folder. Its bookmarks live inside one extension
// instance, so `reset` starts a fresh instance. Upstream's cannot be handed out, so the
// checkout as it is has no `snapshot` (the harness rebuilds a state by replaying from a reset);
// loaded with `exact`, the bookmarks are the engine's plain JSON, handed out and taken back
// through the bundle's `harnessLink`.
//
// A checkout loaded with `exact` reads through bgtail's exact engine: it is named
// `pi-bgrun+bgtail-exact`, prints the engine's text format, learns whether the job runs from
// the harness's `running` through the bundle's `harnessLink` (a stand-in for the job registry:
// the harness's jobs are log files no bgrun call started), and hands the judge the engine's
// `shown` ranges from the same link.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseState, StateError } from "../../../packages/bgtail-exact/dist/index.js";
import { error, serveEut } from "../../common/eut.mjs";
import { newInstance } from "./host.mjs";

/** Upstream's compiled-in limits (its TOTAL_CAP, LINE_CAP and LOG_READ_BYTES). */
const LIMITS = { text_budget: 8000, line_cap: 2000, view_default: 2097152 };

/** The checkout's version, from its package.json when it has one. */
function checkoutVersion(root) {
  try {
    return String(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version);
  } catch {
    return "unknown";
  }
}

/** Serves what `loadCheckout` loaded from `checkout` on stdin/stdout until stdin closes. */
export function serve({ factory, harnessLink }, checkout) {
  let tool = null;
  // The folder of the harness's logs, from the first read: an instance restored to before it
  // is made there.
  let logDir = null;
  const fresh = (dir) => newInstance(factory, { jobsDir: dir, cwd: dir });
  const exact = harnessLink !== undefined;
  return serveEut({
    describe: () => ({
      engine: { name: exact ? "pi-bgrun+bgtail-exact" : "pi-bgrun", version: checkoutVersion(checkout) },
      capabilities: { raw: true, bytes: true, peek: false, shown: exact, reset: true, snapshot: exact },
      limits: LIMITS,
      text_format: exact ? "bgtail-exact-1" : "pi-bgrun-0.7",
    }),
    read(request, id) {
      logDir ??= dirname(request.log_path);
      tool ??= fresh(dirname(request.log_path));
      if (!exact) return read(tool, request, id);
      harnessLink.running = request.running === true;
      return read(tool, request, id, harnessLink);
    },
    reset(id) {
      tool = null;
      return { type: "reset_ok", in_reply_to: id };
    },
    ...(exact ? { snapshot: (_request, id) => snapshot(tool, harnessLink, id), restore: (request, id) => restore(request, id) } : {}),
    noSnapshot: "pi-bgrun keeps its bookmarks inside the extension instance",
  });

  /** The instance's bookmarks taken back from `request.state` (checked by the package's
   *  `parseState`). Where a reset left no instance, one is made for bookmarks in the logs'
   *  folder (known from the first read, or from a bookmark's path); no bookmarks need none. */
  function restore(request, id) {
    let bookmarks;
    try {
      bookmarks = parseState(request.state);
    } catch (err) {
      if (err instanceof StateError) return error(id, "malformed", `not a state of this engine: ${err.message}`);
      throw err;
    }
    if (tool === null) {
      if (bookmarks.bookmarks.length === 0) return { type: "restore_ok", in_reply_to: id };
      logDir ??= dirname(bookmarks.bookmarks[0][1].path);
      tool = fresh(logDir);
    }
    harnessLink.bookmarks.set(bookmarks);
    return { type: "restore_ok", in_reply_to: id };
  }
}

/** The bookmarks of the instance, or none where a reset left no instance. */
function snapshot(tool, harnessLink, id) {
  const state = tool === null ? { bookmarks: [] } : harnessLink.bookmarks.get();
  return { type: "snapshot_ok", in_reply_to: id, state };
}

/** One bgtail call, with the parameters as the harness gave them (a `null` stays null); with
 *  `link` (the exact mode), the reply carries the engine's `shown` ranges. */
async function read(tool, request, id, link) {
  process.env.PI_BGRUN_DIR = dirname(request.log_path);
  const params = { id: request.job_id };
  for (const key of ["lines", "raw", "bytes"]) {
    if (key in request) params[key] = request[key];
  }
  const reply = await tool.read(params, dirname(request.log_path));
  if ("thrown" in reply) return error(id, "rejected", reply.thrown.toWellFormed());
  const resolved = reply.details.logPath;
  if (typeof resolved === "string" && resolved !== request.log_path) {
    return error(id, "internal", `pi-bgrun resolved job ${request.job_id} to ${resolved}, not ${request.log_path}: name the log <job_id>.log`);
  }
  return {
    type: "read_ok",
    in_reply_to: id,
    text: reply.text.toWellFormed(),
    details: reply.details,
    is_error: reply.isError,
    ...(link ? { shown: link.shown } : {}),
  };
}
