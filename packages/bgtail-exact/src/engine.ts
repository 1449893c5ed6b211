// The exact engine: lines are identified by their byte offset in the current generation of
// the log; coverage is a set of byte ranges built only from lines a reply carried; a condensed
// read shows the window's uncovered lines, newest first within the budget; nothing is ever
// marked covered that was not shown. The contract: docs/contract.md in the bgtail repository.

import { bookmarkOf, print, putBookmark } from "./bookmark.js";
import { generationChange } from "./generation.js";
import { fixed1, hasControlChar } from "./js.js";
import { defaultLimits, validateLimits, type Limits } from "./limits.js";
import { LineIndex } from "./lineIndex.js";
import { respond, type Outcome } from "./render.js";
import { Scanner, type Scan } from "./scan.js";
import { nextIndex, partialExtent, partialPrintOf, settledEndOf, settledPrintOf } from "./settle.js";
import { FileSource, readMeasuredSpan, SourceError, type LogSource, type LogStat } from "./source.js";
import { startAfter, type Start } from "./start.js";
import type { Bookmark, BytePrint, ExactState, Job, Reply, Request } from "./types.js";


/** A request the tool refuses before any read (upstream throws these): the message it shows. */
export class RejectedError extends Error {
  override name = "RejectedError";
}

/** `lines` by the contract's rule: the default when absent or NaN, at least 1, `Infinity`
 *  (the whole view) past what any view can hold (2^64, where the Rust engine saturates). */
export function exactLines(lines: number | undefined, limits: Limits): number {
  if (lines === undefined || Number.isNaN(lines)) return limits.defaultLines;
  const n = Math.max(Math.floor(lines), 1);
  return n >= 2 ** 64 ? Infinity : n;
}

/** Upstream's `clampReadWindow`: the default for anything not a positive finite number, else
 *  `min(floor(bytes), viewMax)`. */
export function clampWindow(bytes: number | undefined, limits: Limits): number {
  if (bytes === undefined || !Number.isFinite(bytes) || !(bytes > 0)) return limits.viewDefault;
  return Math.min(Math.floor(bytes), limits.viewMax);
}

/** Upstream's id checks, in its order: required, then valid. */
export function checkId(id: string): void {
  if (id === "") throw new RejectedError("bgtail: id is required");
  if (id.length > 200 || id.includes("/") || id.includes("\\") || id.includes("..") || hasControlChar(id)) {
    throw new RejectedError(`bgtail: invalid job id ${JSON.stringify(id)}`);
  }
}

/** The exact engine. It keeps no state of its own: every read takes the state and changes it. */
export class ExactEngine {
  readonly limits: Limits;

  /** An engine with these limits (upstream's by default); throws `LimitsError` for limits the
   *  guarantees cannot rest on. */
  constructor(limits: Partial<Limits> = {}) {
    this.limits = { ...defaultLimits(), ...limits };
    validateLimits(this.limits);
  }

  /**
   * One read of `job`'s log from `log`. Changes `state` (the bookmark of `job.id`) and returns
   * the reply; throws `RejectedError` for an id upstream refuses. A log that cannot be read
   * gives upstream's error reply and leaves the bookmark as it was.
   */
  read(state: ExactState, job: Job, log: LogSource, request: Request = {}): Reply {
    const lines = exactLines(request.lines, this.limits);
    const window = clampWindow(request.bytes, this.limits);
    checkId(job.id);
    if (request.running === true && request.peek !== true) return gatedReply(job, request);
    try {
      // A log that shrank while it was read (a piece came back shorter than the size the read
      // measured) is read once more from a fresh look at it, so that the reply is of the log
      // as it now is; the bookmark is untouched until a read completes.
      try {
        return this.readLog(state, job, log, request, lines, window);
      } catch (e) {
        if (e instanceof SourceError && e.kind === "shrank") return this.readLog(state, job, log, request, lines, window);
        throw e;
      }
    } catch (e) {
      if (e instanceof SourceError) return errorReply(job, e);
      throw e;
    }
  }

  /** `read` of the file at `job.path`, opened for this read and closed after it. */
  readFile(state: ExactState, job: Job, request: Request = {}): Reply {
    const log = FileSource.open(job.path);
    try {
      return this.read(state, job, log, request);
    } finally {
      log.close();
    }
  }

  /** The head and generation against the bookmark, the scan and the reply, the next bookmark. */
  private readLog(state: ExactState, job: Job, log: LogSource, request: Request, lines: number, window: number): Reply {
    const stat = log.stat();
    const counter = { bytesRead: 0 };
    // The first bytes both identify this generation and are compared with what the bookmark
    // saw, before anything else is read.
    const headBytes = readMeasuredSpan(log, 0, Math.min(stat.size, this.limits.headProbeBytes), counter);
    const head = print(0, headBytes);
    const prev = bookmarkOf(state, job.id);
    const reset = prev === undefined ? undefined : generationChange(prev, job.path, stat, headBytes, head, log, counter);
    const continuing = reset === undefined ? prev : undefined;
    const start = startAfter(prev, reset);
    const [scan, outcome] = this.scanAndRespond(log, job, request, lines, window, stat, continuing, start, counter);
    const bookmark = this.nextBookmark(log, job, stat, head, start, scan, outcome, counter);
    putBookmark(state, job.id, bookmark, this.limits.bookmarkCapacity);
    outcome.reply.bytesRead = counter.bytesRead;
    return outcome.reply;
  }

  /** The scan and the reply; the view above the tail is counted only as far as the reply
   *  needs, and a small view whole at once. */
  private scanAndRespond(
    log: LogSource,
    job: Job,
    request: Request,
    lines: number,
    window: number,
    stat: LogStat,
    continuing: Bookmark | undefined,
    start: Start,
    counter: { bytesRead: number },
  ): [Scan, Outcome] {
    const prior = continuing && { settledEnd: continuing.settled_end, coverage: continuing.coverage.ranges };
    const scanner = new Scanner(log, this.limits, counter);
    const size = stat.size;
    let whole = this.limits.countWholeView || Math.min(size, window) <= this.limits.countViewsUpTo;
    for (;;) {
      const index = LineIndex.of(continuing?.index?.marks ?? []);
      const want = { size, window, lines, running: request.running === true, whole };
      const scan = scanner.scan(want, prior, index);
      const outcome = respond(this.limits, job, request, lines, window, scan, start);
      if (outcome !== undefined) return [scan, outcome];
      if (whole) throw new Error("bgtail-exact: a whole scan counts the view");
      whole = true;
    }
  }

  /** The bookmark a read leaves: where its complete lines end, the fingerprint before that
   *  end, the next line index, and the coverage the reply earned. */
  private nextBookmark(
    log: LogSource,
    job: Job,
    stat: LogStat,
    head: BytePrint,
    start: Start,
    scan: Scan,
    outcome: Outcome,
    counter: { bytesRead: number },
  ): Bookmark {
    const settledEnd = settledEndOf(log, stat, scan, start, this.limits.lineSearchPiece, counter);
    const limits = this.limits;
    const settledPrint = settledPrintOf(log, scan, settledEnd, limits.settledPrintBytes, counter);
    const partialPrint = partialPrintOf(log, scan, partialExtent(scan, settledEnd, stat.size), limits.partialPrintBytes, counter);
    const index = nextIndex(this.limits, scan, outcome.coverage, settledEnd);
    return {
      path: job.path,
      generation: start.generation,
      identity: stat.identity ?? null,
      size: stat.size,
      settled_end: settledEnd,
      head,
      settled_print: settledPrint ?? null,
      coverage: { ranges: outcome.coverage },
      partial_seen: outcome.partialSeen ?? null,
      partial_print: partialPrint ?? null,
      index: { marks: index.marks },
    };
  }
}

/** Upstream's error reply for a log that cannot be read. */
export function errorReply(job: Job, error: SourceError): Reply {
  const notFound = error.kind === "not_found";
  const text = notFound
    ? `No log found for job ${job.id} at ${job.path}. bgrun job ids look like \`<name>-<epoch>-<pid>\`; run \`bgstatus\` with no id to list this session's jobs.`
    : `Log for job ${job.id} at ${job.path} exists but could not be read (file may be too large or unreadable)`;
  return bareReply(text, "error", { id: job.id, logPath: job.path, notFound });
}

/** The reply to a read of a running job without `peek`: the state line, nothing of the log. */
export function gatedReply(job: Job, request: Request): Reply {
  const s = request.elapsedSecs;
  const secs = s !== undefined && Number.isFinite(s) && s >= 0 ? s : 0;
  const text = `⏳ still running — ${fixed1(secs)}s elapsed, no exit code yet. Launching was the task; the wake is your next input — pass peek: true only if you need the live log now.`;
  return bareReply(text, "gated", { id: job.id, logPath: job.path, running: true });
}

function bareReply(text: string, kind: "error" | "gated", details: Record<string, unknown>): Reply {
  return {
    text,
    body: [0, 0],
    isError: kind === "error",
    kind,
    reset: null,
    shown: [],
    counts: {
      totalLines: null,
      newLines: 0,
      selected: 0,
      shown: 0,
      newShown: 0,
      earlierShown: 0,
      leftOut: 0,
      unseenAbove: null,
      skippedAbove: 0,
      forgottenRanges: 0,
      partialShown: false,
    },
    notes: [],
    details,
    bytesRead: 0,
  };
}

