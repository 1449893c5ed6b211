// The engine behind bgtail's engine-under-test protocol (`bgtail-eut` v1, docs/engine-protocol.md
// in the bgtail repository): one JSON request per stdin line, one reply per stdout line, so that
// bgtail's harness, judge and model checker drive this package as they drive the Rust engine.

import * as readline from "node:readline";
import { emptyState } from "./bookmark.js";
import { ExactEngine, RejectedError } from "./engine.js";
import { defaultLimits, type Limits } from "./limits.js";
import { parseState, snapshotState, StateError } from "./state.js";
import type { ExactState, Request } from "./types.js";

const PROTOCOL = "bgtail-eut";
const VERSION = 1;

/** What `serve` answers with: its name and version in `init_ok`, and its limits. */
export interface ServeOptions {
  limits?: Partial<Limits>;
  version?: string;
}

type Message = Record<string, unknown>;

/** A request that is not one of the protocol's: answered `malformed`. */
class Malformed extends Error {}

/** One server: the engine and its state, answering one request at a time. */
export class Server {
  private readonly engine: ExactEngine;
  private state: ExactState = emptyState();

  constructor(private readonly options: ServeOptions = {}) {
    this.engine = new ExactEngine(options.limits);
  }

  /** The reply to one request line (`n`: its 1-based number, for errors). */
  answerLine(line: string, n: number): Message {
    let request: unknown;
    try {
      request = JSON.parse(line);
    } catch (e) {
      return error(0, "malformed", `request line ${n}: ${(e as Error).message}`);
    }
    const msgId = isObject(request) && Number.isSafeInteger(request.msg_id) ? (request.msg_id as number) : 0;
    try {
      if (!isObject(request)) throw new Malformed("expected a JSON object");
      return this.answer(request, msgId);
    } catch (e) {
      if (e instanceof Malformed) return error(msgId, "malformed", `request line ${n}: ${e.message}`);
      if (e instanceof RejectedError) return error(msgId, "rejected", e.message);
      return error(msgId, "internal", `request line ${n}: ${(e as Error)?.stack ?? String(e)}`);
    }
  }

  private answer(request: Message, msgId: number): Message {
    if (!Number.isSafeInteger(request.msg_id) || (request.msg_id as number) < 0) {
      throw new Malformed("msg_id must be a non-negative integer");
    }
    switch (request.type) {
      case "init":
        return this.init(request, msgId);
      case "read":
        return this.read(request, msgId);
      case "reset":
        this.state = emptyState();
        return { type: "reset_ok", in_reply_to: msgId };
      case "snapshot":
        return { type: "snapshot_ok", in_reply_to: msgId, state: snapshotState(this.state) };
      case "restore":
        try {
          this.state = parseState(request.state);
        } catch (e) {
          if (e instanceof StateError) return error(msgId, "malformed", `not a state of this engine: ${e.message}`);
          throw e;
        }
        return { type: "restore_ok", in_reply_to: msgId };
      default:
        if (typeof request.type !== "string") throw new Malformed("a request has a string `type`");
        return error(msgId, "not_supported", `a request of a later protocol version (${request.type})`);
    }
  }

  private init(request: Message, msgId: number): Message {
    const versions = request.versions;
    if (!Array.isArray(versions) || request.protocol !== PROTOCOL) throw new Malformed(`an init names ${PROTOCOL} and its versions`);
    if (!versions.includes(VERSION)) {
      return error(msgId, "not_supported", `${PROTOCOL} versions ${JSON.stringify(versions)}: this engine speaks ${VERSION}`);
    }
    const l = this.engine.limits;
    const d = defaultLimits();
    // The largest view and the places compared to see a rewrite, declared where they are not
    // the defaults (as the Rust engine's `DeclaredLimits::from`).
    const places: Record<string, number> = {};
    if (l.viewMax !== d.viewMax) places.view_max = l.viewMax;
    if (l.headProbeBytes !== d.headProbeBytes) places.head_probe_bytes = l.headProbeBytes;
    if (l.settledPrintBytes !== d.settledPrintBytes) places.settled_print_bytes = l.settledPrintBytes;
    if (l.partialPrintBytes !== d.partialPrintBytes) places.partial_print_bytes = l.partialPrintBytes;
    return {
      type: "init_ok",
      in_reply_to: msgId,
      version: VERSION,
      engine: { name: "bgtail-exact-ts", version: this.options.version ?? "0.0.0" },
      capabilities: { raw: true, bytes: true, peek: true, shown: true, reset: true, snapshot: true },
      limits: { text_budget: l.textBudget, line_cap: l.lineCap, view_default: l.viewDefault, ...places },
      text_format: "bgtail-exact-1",
    };
  }

  private read(r: Message, msgId: number): Message {
    const jobId = text(r, "job_id");
    const logPath = text(r, "log_path");
    const nowMs = r.now_ms;
    if (nowMs !== undefined && (!Number.isSafeInteger(nowMs) || (nowMs as number) < 0)) throw new Malformed("now_ms must be a non-negative integer");
    // `null` is not absent: JavaScript's arithmetic makes it 0, which reads one line.
    const lines = r.lines === null ? 0 : optionalNumber(r, "lines");
    const request: Request = {
      lines,
      raw: flag(r, "raw"),
      bytes: optionalNumber(r, "bytes"),
      peek: flag(r, "peek"),
      running: flag(r, "running"),
      elapsedSecs: nowMs === undefined ? undefined : (nowMs as number) / 1000,
    };
    const reply = this.engine.readFile(this.state, { id: jobId, path: logPath }, request);
    return {
      type: "read_ok",
      in_reply_to: msgId,
      text: reply.text,
      details: reply.details,
      is_error: reply.isError,
      shown: reply.shown.map((s) => ({ offset: s.offset, end: s.end })),
    };
  }
}

const isObject = (v: unknown): v is Message => typeof v === "object" && v !== null && !Array.isArray(v);

function error(inReplyTo: number, code: string, text: string): Message {
  return { type: "error", in_reply_to: inReplyTo, code, text };
}

function text(r: Message, key: string): string {
  if (typeof r[key] !== "string") throw new Malformed(`\`${key}\` must be a string`);
  return r[key] as string;
}

function flag(r: Message, key: string): boolean {
  if (r[key] === undefined) return false;
  if (typeof r[key] !== "boolean") throw new Malformed(`\`${key}\` must be a boolean`);
  return r[key] as boolean;
}

function optionalNumber(r: Message, key: string): number | undefined {
  if (r[key] === undefined) return undefined;
  if (typeof r[key] !== "number") throw new Malformed(`\`${key}\` must be a number`);
  return r[key] as number;
}

/** Answers requests from `input` on `output` until `input` ends. */
export async function serve(
  options: ServeOptions = {},
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  const server = new Server(options);
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === "") continue;
    const reply = JSON.stringify(server.answerLine(line, n));
    if (!output.write(`${reply}\n`)) await new Promise((resolve) => output.once("drain", resolve));
  }
}
