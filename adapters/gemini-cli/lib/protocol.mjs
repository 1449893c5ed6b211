// Protocol mode: a Gemini CLI checkout's real `read_background_output` behind bgtail's
// engine-under-test protocol (`bgtail-eut` v1, docs/engine-protocol.md).
//
// Each read is a call of the tool the way Gemini's scheduler makes one: what `tool.build(params)`
// does (upstream's schema validation, then its `createInvocation`), and the invocation's
// `execute`. Gemini names a job by an
// integer pid; the adapter gives each job id the harness names a pid of its own, and the
// execution service's stand-in maps that pid to the harness's log. The reader keeps no state
// between reads, so a snapshot is only the adapter's table of pids.
//
// A read the tool's schema refuses (`lines` of 0, a fraction, `null`: the schema says an
// integer ≥ 1) is a call Gemini's model would not be let make: it is answered `not_supported`
// with the validator's words, so the harness reports it as not replayed.

import { error, serveEut } from "../../common/eut.mjs";
import { forgetJobs, registerJob } from "../host/shellExecutionService.mjs";

/** The reader's compiled-in limits: its 64 KiB tail (MAX_BUFFER_LOAD_CAP_BYTES) and 100 lines
 * by default (DEFAULT_TAIL_LINES_COUNT). It has no budget and cuts no line. */
const LIMITS = { view_default: 65536, lines_default: 100 };

/** The first pid the adapter hands out (any positive integer would do). */
const FIRST_PID = 4000;

/** Serves `Tool` (a checkout's ReadBackgroundOutputTool, version `version`) until stdin closes. */
export function serve(Tool, version) {
  const session = { config: { getSessionId: () => "bgtail-harness" } };
  const tool = new Tool(session, messageBus());
  let pids = new Map();
  const pidOf = (jobId) => {
    if (!pids.has(jobId)) pids.set(jobId, FIRST_PID + pids.size);
    return pids.get(jobId);
  };
  return serveEut({
    describe: () => ({
      engine: { name: "gemini-cli", version },
      capabilities: { reset: true, snapshot: true, exit_by_running: true },
      limits: LIMITS,
      text_format: "gemini-cli-0.56",
    }),
    read(request, id) {
      const pid = pidOf(request.job_id);
      registerJob(request.job_id, pid, request.log_path);
      return read(tool, pid, request, id);
    },
    reset(id) {
      pids = new Map();
      forgetJobs();
      return { type: "reset_ok", in_reply_to: id };
    },
    snapshot(_request, id) {
      return { type: "snapshot_ok", in_reply_to: id, state: { pids: [...pids] } };
    },
    restore(request, id) {
      const table = request.state?.pids;
      if (!Array.isArray(table) || !table.every((e) => Array.isArray(e) && typeof e[0] === "string" && Number.isInteger(e[1]))) {
        return error(id, "malformed", "restore: state.pids is not a list of [job id, pid] pairs");
      }
      pids = new Map(table);
      forgetJobs();
      return { type: "restore_ok", in_reply_to: id };
    },
  });
}

/** One call of the tool: validated by upstream's schema, then executed. */
async function read(tool, pid, request, id) {
  const params = { pid };
  if ("lines" in request) params.lines = request.lines;
  const refused = validate(tool, params);
  if (refused) {
    return error(id, "not_supported", `read_background_output refuses lines: ${JSON.stringify(request.lines)} (${refused})`);
  }
  const invocation = tool.createInvocation(params, tool.messageBus, tool.name, tool.displayName);
  const result = await invocation.execute({ abortSignal: new AbortController().signal });
  if (typeof result?.llmContent !== "string") {
    return error(id, "internal", `read_background_output returned no text: ${JSON.stringify(result)}`);
  }
  return {
    type: "read_ok",
    in_reply_to: id,
    text: result.llmContent.toWellFormed(),
    details: result.error ? { error: result.error } : {},
    is_error: result.error !== undefined,
  };
}

/**
 * What `tool.build(params)` checks, by upstream's own `validateToolParams`, once per distinct
 * `lines`: upstream builds its schema object anew on every call, so ajv compiles and keeps it
 * each time (about 1 ms and 50 KB per call here), which a model check's tens of thousands of
 * reads cannot afford. The verdict depends on `lines` alone (the pid is always an integer), and
 * `build` then calls `createInvocation`, as `read` does.
 */
const verdicts = new Map();
function validate(tool, params) {
  // `null` is a value the schema refuses, not an absent `lines`.
  const key = "lines" in params ? JSON.stringify(params.lines) : "absent";
  if (!verdicts.has(key)) verdicts.set(key, tool.validateToolParams(params));
  return verdicts.get(key);
}

/** The message bus a tool is built with: the reader's read path never sends on it. */
function messageBus() {
  const refuse = (what) => () => {
    throw new Error(`read_background_output used the message bus (${what}), which the adapter does not stand in for`);
  };
  return { publish: refuse("publish"), subscribe: refuse("subscribe"), unsubscribe: refuse("unsubscribe"), request: refuse("request") };
}
