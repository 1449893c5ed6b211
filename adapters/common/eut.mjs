// The engine-under-test protocol's loop (`bgtail-eut` v1, docs/engine-protocol.md), shared by
// every node adapter: one JSON request per line in, exactly one reply per line out, matched
// by `in_reply_to`. An adapter gives the handlers; this file owns parsing, version agreement
// and the replies to what no handler takes.

import { createInterface } from "node:readline";

export const PROTOCOL = "bgtail-eut";
export const VERSION = 1;

/** An error reply: `code` is one of the protocol's (`malformed`, `not_supported`, …). */
export function error(id, code, text) {
  return { type: "error", in_reply_to: id, code, text };
}

/**
 * Serves `adapter` until `input` closes, writing replies to `output`. The adapter has:
 * - `describe()` → the `init_ok` fields but `type`, `in_reply_to` and `version`: `engine`,
 *   `capabilities`, `limits`, `text_format`;
 * - `read(request, id)` → a reply (async allowed); `reset(id)` → a reply;
 * - optionally `snapshot(request, id)` and `restore(request, id)`; without them both are
 *   answered `not_supported` with `adapter.noSnapshot` as the reason.
 * A handler that throws is answered `internal` with the error's message, and serving goes on.
 */
export async function serveEut(adapter, { input = process.stdin, output = process.stdout } = {}) {
  const send = (message) => output.write(JSON.stringify(message) + "\n");
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n += 1;
    if (line.trim() === "") continue;
    let request;
    try {
      request = JSON.parse(line);
    } catch (err) {
      send(error(0, "malformed", `request line ${n}: ${err.message}`));
      continue;
    }
    const id = Number.isInteger(request?.msg_id) ? request.msg_id : 0;
    try {
      send(await answer(adapter, request, id, n));
    } catch (err) {
      send(error(id, "internal", `request line ${n}: ${err?.message ?? err}`));
    }
  }
}

/** The one reply to `request`. */
async function answer(adapter, request, id, n) {
  switch (request?.type) {
    case "init":
      return init(adapter, request, id);
    case "read":
      if (typeof request.job_id !== "string" || typeof request.log_path !== "string") {
        return error(id, "malformed", "a read needs job_id and log_path");
      }
      return adapter.read(request, id);
    case "reset":
      return adapter.reset(id);
    case "snapshot":
    case "restore": {
      const handler = adapter[request.type];
      if (handler) return handler.call(adapter, request, id);
      return error(id, "not_supported", adapter.noSnapshot ?? "this engine cannot hand out its state");
    }
    default:
      return error(id, "malformed", `request line ${n}: unknown type ${JSON.stringify(request?.type)}`);
  }
}

/** `init_ok` when the harness offers this version, else `not_supported`. */
function init(adapter, request, id) {
  if (!Array.isArray(request.versions) || !request.versions.includes(VERSION)) {
    return error(id, "not_supported", `${PROTOCOL} versions ${JSON.stringify(request.versions)}: this adapter speaks ${VERSION}`);
  }
  return { type: "init_ok", in_reply_to: id, version: VERSION, ...adapter.describe() };
}
