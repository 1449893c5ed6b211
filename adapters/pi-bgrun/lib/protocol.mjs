// Protocol mode: the checkout's real bgtail behind bgtail's engine-under-test protocol
// (`bgtail-eut` v1, docs/engine-protocol.md in the bgtail repository). One JSON request per line
// on stdin, exactly one reply per line on stdout, matched by `in_reply_to`.
//
// pi-bgrun finds job ID's log at `<jobs dir>/ID.log`: the harness names the log that way, and
// each read points PI_BGRUN_DIR at the log's folder. Its bookmarks live inside one extension
// instance, so `reset` starts a fresh instance; they cannot be handed out, so there is no
// `snapshot` (the harness rebuilds a state by replaying from a reset).
//
// A checkout loaded with `exact` reads through bgtail's exact engine: it is named
// `pi-bgrun+bgtail-exact`, prints the engine's text format, learns whether the job runs from
// the harness's `running` through the bundle's `harnessLink` (a stand-in for the job registry:
// the harness's jobs are log files no bgrun call started), and hands the judge the engine's
// `shown` ranges from the same link.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
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
  const fresh = (logDir) => newInstance(factory, { jobsDir: logDir, cwd: logDir });
  const exact = harnessLink !== undefined;
  return serveEut({
    describe: () => ({
      engine: { name: exact ? "pi-bgrun+bgtail-exact" : "pi-bgrun", version: checkoutVersion(checkout) },
      capabilities: { raw: true, bytes: true, peek: false, shown: exact, reset: true, snapshot: false },
      limits: LIMITS,
      text_format: exact ? "bgtail-exact-1" : "pi-bgrun-0.7",
    }),
    read(request, id) {
      tool ??= fresh(dirname(request.log_path));
      if (!exact) return read(tool, request, id);
      harnessLink.running = request.running === true;
      return read(tool, request, id, harnessLink);
    },
    reset(id) {
      tool = null;
      return { type: "reset_ok", in_reply_to: id };
    },
    noSnapshot: "pi-bgrun keeps its bookmarks inside the extension instance",
  });
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
