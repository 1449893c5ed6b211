// The exact engine: lines are identified by their byte offset in the current generation of
// the log; coverage is a set of byte ranges built only from lines a reply carried; a condensed
// read shows the window's uncovered lines, newest first within the budget; nothing is ever
// marked covered that was not shown. The contract: docs/contract.md in the bgtail repository.

import { fixed1, hasControlChar } from "./js.js";
import { defaultLimits, validateLimits, type Limits } from "./limits.js";
import { LineIndex, type Mark } from "./lineIndex.js";
import { respond, type Outcome } from "./render.js";
import { startAfter, type Start } from "./start.js";
import { Scanner, type Scan } from "./scan.js";
import { FileSource, readSpan, SourceError, type LogSource, type LogStat } from "./source.js";
import type { Bookmark, BytePrint, ExactState, Job, Reply, Request, ResetReason } from "./types.js";
import type { Ranges } from "./coverage.js";
import { View } from "./view.js";
import { nth } from "./nth.js";

/** How many bytes before the settled end a bookmark fingerprints. */
const SETTLED_PRINT_BYTES = 64;
/** How many bytes at the end of the partial line the caller saw a bookmark fingerprints. */
const PARTIAL_PRINT_BYTES = 64;
const NL = 0x0a;

/** A request the tool refuses before any read (upstream throws these): the message it shows. */
export class RejectedError extends Error {
  override name = "RejectedError";
}

/** FNV-1a, 64 bits, as 16 hex digits: kept in two 32-bit halves, and the low half's product
 *  in two 16-bit limbs, so that every step is integer arithmetic (no BigInt, no division). */
export function fnv1a(bytes: Uint8Array): string {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]!) >>> 0; // i < bytes.length: a byte loop, so no call per byte
    // h × (2^40 + 0x1b3) mod 2^64. The low half times 0x1b3, limb by limb: `low` < 2^25 and
    // `high` < 2^26, so the carry into the high half is `high >>> 16`. The shift by 40 moves
    // the low half's bits up by 8 within the high half.
    const low = (lo & 0xffff) * 0x1b3;
    const high = (lo >>> 16) * 0x1b3 + (low >>> 16);
    hi = (Math.imul(hi, 0x1b3) + (high >>> 16) + (lo << 8)) >>> 0;
    lo = (((high & 0xffff) << 16) | (low & 0xffff)) >>> 0;
  }
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
}

function print(offset: number, bytes: Uint8Array): BytePrint {
  return { offset, len: bytes.length, hash: fnv1a(bytes) };
}

/** Whether `bytes`, read at `p.offset`, start with the fingerprinted ones. */
function printMatches(p: BytePrint, bytes: Uint8Array): boolean {
  return bytes.length >= p.len && fnv1a(bytes.subarray(0, p.len)) === p.hash;
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

/** An empty state: no bookmarks. */
export function emptyState(): ExactState {
  return { bookmarks: [] };
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
      return this.readLog(state, job, log, request, lines, window);
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
    const headBytes = readSpan(log, 0, Math.min(stat.size, this.limits.headProbeBytes), counter);
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
    // An unterminated last segment may still grow into a new line while the job runs; it
    // starts where it really starts, even when the buffer cut it.
    const tail = unterminatedTailStart(scan.view);
    let settledEnd = stat.size;
    if (tail !== undefined && scan.stillWriting) {
      settledEnd = tail > scan.view.origin ? tail : partialLineStart(log, start, tail, counter);
    }
    const settledPrint = settledPrintOf(log, scan, settledEnd, counter);
    const seen = outcome.partialSeen;
    // The last PARTIAL_PRINT_BYTES of the partial line the caller saw (all of a short one).
    const partialPrint =
      seen === undefined ? undefined : printOf(log, scan, Math.max(seen[0], seen[1] - PARTIAL_PRINT_BYTES), seen[1], counter);
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

function bookmarkOf(state: ExactState, id: string): Bookmark | undefined {
  return state.bookmarks.find(([k]) => k === id)?.[1];
}

/** Puts the bookmark last (most recently read), forgetting the oldest past `capacity`. */
function putBookmark(state: ExactState, id: string, bookmark: Bookmark, capacity: number): void {
  const i = state.bookmarks.findIndex(([k]) => k === id);
  if (i !== -1) state.bookmarks.splice(i, 1);
  state.bookmarks.push([id, bookmark]);
  const excess = state.bookmarks.length - capacity;
  if (excess > 0) state.bookmarks.splice(0, excess);
}

/** Whether the log is another generation than the bookmark's, and why. */
function generationChange(
  prev: Bookmark,
  path: string,
  stat: LogStat,
  head: Uint8Array,
  headPrint: BytePrint,
  log: LogSource,
  counter: { bytesRead: number },
): ResetReason | undefined {
  if (prev.path !== path) return "path_changed";
  const [a, b] = [prev.identity, stat.identity];
  if (a && b && (a.device !== b.device || a.inode !== b.inode)) return "file_replaced";
  if (stat.size < prev.size) return "shrank";
  // Fewer head bytes than the bookmark hashed (the log shrank while it was read) cannot prove
  // the same log, so they count as a rewrite: coverage starts over, which can only repeat.
  // The head this read fingerprinted is most often as long as the bookmark's: its hash is
  // then the one to compare, and the bytes are not hashed twice.
  const sameHead = prev.head.len === headPrint.len ? prev.head.hash === headPrint.hash : printMatches(prev.head, head);
  if (!sameHead) return "rewritten";
  const p = prev.settled_print;
  if (p && !printMatches(p, readSpan(log, p.offset, p.len, counter))) return "regrown_past_cut";
  // Last: the partial line a reply showed, rewritten in place behind an unchanged head.
  const q = prev.partial_print;
  if (q && !printMatches(q, readSpan(log, q.offset, q.len, counter))) return "partial_rewritten";
  return undefined;
}

/** The file offset where the log's unterminated last segment starts, if it has one. */
function unterminatedTailStart(view: View): number | undefined {
  const buf = view.buf;
  if (buf.length === 0 || buf[buf.length - 1] === NL) return undefined;
  return view.origin + buf.lastIndexOf(NL) + 1;
}

/** The fingerprint of the bytes before the settled end, from the tail when it holds them. */
function settledPrintOf(log: LogSource, scan: Scan, settledEnd: number, counter: { bytesRead: number }): BytePrint | undefined {
  const view = scan.view;
  if (settledEnd > view.origin + view.buf.length) return undefined;
  return printOf(log, scan, Math.max(0, settledEnd - SETTLED_PRINT_BYTES), settledEnd, counter);
}

/** The fingerprint of the bytes `[from, to)`: from the view when it holds them, else read;
 *  undefined when the log ends first (it shrank while it was read: the next read sees it). */
function printOf(log: LogSource, scan: Scan, from: number, to: number, counter: { bytesRead: number }): BytePrint | undefined {
  const view = scan.view;
  if (from >= view.origin && to <= view.origin + view.buf.length) {
    return print(from, view.buf.subarray(from - view.origin, to - view.origin));
  }
  try {
    const bytes = readSpan(log, from, to - from, counter);
    return bytes.length === to - from ? print(from, bytes) : undefined;
  } catch (e) {
    if (e instanceof SourceError) return undefined;
    throw e;
  }
}

/** Where the partial line holding byte `tail − 1` starts, when the view cut it: searched back
 *  no further than the last read's settled end, and over none of the last read's unterminated
 *  segment, so a progress line longer than the view costs each poll what was appended. */
function partialLineStart(log: LogSource, start: Start, tail: number, counter: { bytesRead: number }): number {
  const { settledBefore: settled, sizeBefore: size } = start;
  if (settled !== undefined && size !== undefined && settled <= tail) {
    const searchedFrom = Math.min(Math.max(size, settled), tail);
    const at = lineStartBefore(log, tail, searchedFrom, counter);
    return at === searchedFrom ? settled : at;
  }
  return lineStartBefore(log, tail, 0, counter);
}

/** Where the line holding byte `start − 1` begins, searched back in 64 KiB pieces no further
 *  than `floor`; an unreadable piece ends the search where it stands. */
function lineStartBefore(log: LogSource, start: number, floor: number, counter: { bytesRead: number }): number {
  const PIECE = 64 * 1024;
  let end = start;
  while (end > floor) {
    const from = Math.max(end - Math.min(end, PIECE), floor);
    let piece: Uint8Array;
    try {
      piece = readSpan(log, from, end - from, counter);
    } catch (e) {
      if (e instanceof SourceError) return end;
      throw e;
    }
    const i = piece.lastIndexOf(NL);
    if (i !== -1) return from + i + 1;
    if (piece.length !== end - from) return end;
    end = from;
  }
  return floor;
}

/** The index the next read starts from: what this read counted, plus marks in the tail at every
 *  coverage boundary, at the settled end and about every `markSpacing` bytes, thinned. */
function nextIndex(limits: Limits, scan: Scan, coverage: Ranges, settledEnd: number): LineIndex {
  const base = scan.tailMark;
  if (base === undefined) return new LineIndex();
  const view = scan.view;
  const bufEnd = view.origin + view.buf.length;
  // The log shrank while it was read: nothing to number; the next read starts over.
  if (settledEnd > bufEnd) return new LineIndex();
  const isLineStart = (x: number) =>
    x === base.offset || (x > view.origin && x <= bufEnd && view.buf[x - view.origin - 1] === NL);
  const pinned: number[] = [];
  for (const [s, e] of coverage) pinned.push(s, e);
  if (isLineStart(settledEnd)) pinned.push(settledEnd);
  const wanted = pinned.filter((x) => x >= base.offset && x <= settledEnd && isLineStart(x));
  let lastSpaced = base.offset;
  for (const l of view.lines) {
    const at = view.offset(l);
    if (at >= settledEnd) break;
    if (at >= base.offset && at - lastSpaced >= limits.markSpacing) {
      wanted.push(at);
      lastSpaced = at;
    }
  }
  const sortedUnique = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);
  const index = scan.index;
  index.insert(base);
  let { lines, newlines, offset: at } = base;
  let nextLine = partitionLines(view, base.offset);
  // Newlines between two offsets come from the scan's counts when both lie past where it
  // started; before that (a line bound cut the buffer) they are counted.
  const counts = base.offset - view.origin >= view.scanStart;
  let before = counts ? view.newlinesBefore(base.offset - view.origin, nextLine) : 0;
  for (const x of sortedUnique(wanted)) {
    while (nextLine < view.lines.length && view.offset(nth(view.lines, nextLine)) < x) {
      lines++;
      nextLine++;
    }
    if (counts) {
      const upTo = view.newlinesBefore(x - view.origin, nextLine);
      newlines += upTo - before;
      before = upTo;
    } else newlines += countNewlines(view.buf, at - view.origin, x - view.origin);
    at = x;
    index.insert({ offset: x, lines, newlines } satisfies Mark);
  }
  if (index.poisoned) return new LineIndex();
  index.thin(Math.max(0, view.size - limits.viewMax), limits.markSpacing, sortedUnique(pinned));
  return index;
}

/** How many of the view's lines start before `offset`. */
function partitionLines(view: View, offset: number): number {
  let lo = 0;
  let hi = view.lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (view.offset(nth(view.lines, mid)) < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function countNewlines(buf: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(NL, from); i !== -1 && i < to; i = buf.indexOf(NL, i + 1)) n++;
  return n;
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

