// How the engine reads a log: the tail it must see, and counts for the rest of the view.
//
//   file: 0 .. readFrom origin .. first ..... counted ...... tail ............... settled .. size
//                  |<- view ---------------------------------------------------------------->|
//                                            |<- linesAbove ->|<- the tail, read, scanned -->|
//
// - `origin = size − window` (or 0); `readFrom = origin − 1` (or 0): the byte before the view
//   tells whether a line starts exactly at `origin`.
// - `tail` is a line start; `[tail, size)` is the only part of the view whose bytes a read
//   keeps. It holds the window, one more complete content line (where coverage joins), and
//   everything after the bookmark's settled end.
// - `counted` is the lowest line start whose number is known, `first ≤ counted ≤ tail`; the
//   lines in `[counted, tail)` are known only as numbers, from the line index.
// - When the tail reaches the view's start, the whole view is scanned and nothing is above.

import type { Ranges } from "./coverage.js";
import type { Limits } from "./limits.js";
import { countLines, LineIndex, type Mark } from "./lineIndex.js";
import { concat, Counter } from "./count.js";
import { readSpan, shrankWhileRead, type LogSource } from "./source.js";
import { capOf, View } from "./view.js";
import { nth } from "./nth.js";

const NL = 0x0a;

/** The view above the tail, as line numbers. */
export interface Above {
  /** The lowest line start counted: the view's first line when `complete`. */
  counted: Mark;
  /** The tail's first byte (a line start). */
  tail: Mark;
  /** Whether every line of the view above the tail is counted. */
  complete: boolean;
}

/** What one read found in the log, before deciding what to show. */
export interface Scan {
  /** The tail (or the whole view), its content lines in file order. */
  view: View;
  /** The view's first byte as a file offset. */
  origin: number;
  lineBoundHit: boolean;
  /** The tail's complete content lines (all but a trailing partial line). */
  complete: number;
  /** Index in `view.lines` of the partial line, if the job may still be writing it. */
  partial: number | undefined;
  /** Index in `view.lines` of the window's first line. */
  windowStart: number;
  stillWriting: boolean;
  /** The cap the wrapper's exit marker recorded, if the log ends with one that does. */
  truncatedAt: number | undefined;
  above: Above | undefined;
  /** The index after this read's counting, and the numbers at the tail's first line start. */
  index: LineIndex;
  tailMark: Mark | undefined;
}

/** The counted content lines of the view before the tail's first listed line. */
export function linesAbove(scan: Scan): number {
  return scan.above ? Math.max(0, scan.above.tail.lines - scan.above.counted.lines) : 0;
}

/** Whether the view is the whole log: it starts at the log's first byte and the line bound
 *  did not cut it. */
export function wholeLog(scan: Scan): boolean {
  return scan.origin === 0 && !scan.lineBoundHit;
}

/** How many counted lines above the tail end at or before `offset`, a coverage boundary. */
export function linesBefore(a: Above, offset: number, index: LineIndex): number {
  let lines: number;
  if (offset <= a.counted.offset) lines = a.counted.lines;
  else if (offset >= a.tail.offset) lines = a.tail.lines;
  else lines = index.floor(offset)!.lines;
  // Clamped, so that an index the log changed under cannot make numbers run backwards.
  const above = Math.max(0, a.tail.lines - a.counted.lines);
  return Math.max(0, Math.min(lines - a.counted.lines, above));
}

/** What a scan is asked for. */
export interface Want {
  size: number;
  window: number;
  /** The window, in content lines (`Infinity`: every line of the view). */
  lines: number;
  running: boolean;
  /** Whether to count the whole view above the tail. */
  whole: boolean;
}

/** The bookmark's knowledge a read starts from, when it continues a generation. */
export interface Prior {
  settledEnd: number;
  coverage: Ranges;
}

/** What `readTail` read: the whole view's bytes, or a tail from a line start, already cut into
 *  lines (its `newlines` are the `\n` bytes from `start` to the end). */
type Tail = { whole: true; buf: Uint8Array } | { whole: false; start: number; view: View; newlines: number };

interface Part {
  origin: number;
  readFrom: number;
  tail: Mark;
  tailNewlines: number;
  whole: boolean;
}

export class Scanner {
  constructor(
    private readonly log: LogSource,
    private readonly limits: Limits,
    private readonly counter: { bytesRead: number },
  ) {
    this.count = new Counter(log, limits, counter);
  }

  /** The counting this scanner asks for, its reads counted into the same total. */
  private readonly count: Counter;

  private span(offset: number, len: number): Uint8Array {
    return readSpan(this.log, offset, len, this.counter);
  }

  /** Reads what a read needs and counts the rest of the view: all of it when `want.whole`,
   *  else as far as the bookmark's coverage reaches. */
  scan(want: Want, prior: Prior | undefined, index: LineIndex): Scan {
    const start = prior === undefined ? new LineIndex() : index;
    const scan = this.scanWith(want, prior, start);
    if (scan.index.poisoned) return this.scanWith(want, prior, new LineIndex());
    return scan;
  }

  private scanWith(want: Want, prior: Prior | undefined, initial: LineIndex): Scan {
    const { size, window, lines, running } = want;
    let index = initial;
    const origin = size - Math.min(size, window);
    const readFrom = Math.max(0, origin - 1);
    const settled = prior?.settledEnd;
    // A log that grew past the view since the last read: every line of the view is new and
    // the header counts them, so all of it is counted, backwards from the tail.
    const grewPastView = settled !== undefined && settled < origin;
    const whole = want.whole || grewPastView;
    if (grewPastView) index = new LineIndex();
    const tail = this.readTail(size, readFrom, origin, lines + 1, settled);
    let view: View;
    let above: Above | undefined;
    let tailMark: Mark | undefined;
    let lineBoundHit: boolean;
    if (tail.whole) {
      const lead = origin - readFrom;
      view = View.scanWithLead(readFrom, size, tail.buf, lead, this.limits.scanLinesMax);
      if (origin > 0 && view.lines.length > 0 && nth(view.lines, 0).start === 0) view.lines.shift();
      const at = firstLineStart(view, origin);
      if (at !== undefined && !view.lineBoundHit) {
        tailMark = numberFromInside(view, at, index);
        if (tailMark === undefined) {
          index = new LineIndex();
          tailMark = { offset: at, lines: 0, newlines: 0 };
        }
      }
      lineBoundHit = view.lineBoundHit;
    } else {
      view = tail.view;
      const numbered = this.numberTail(view, tail.start, index);
      index = numbered.index;
      const part: Part = { origin, readFrom, tail: numbered.mark, tailNewlines: tail.newlines, whole };
      const [counted, hit, complete] = this.countAbove(part, prior, index);
      index.insert(counted);
      this.markCoverage(prior, counted, numbered.mark.offset, index);
      above = { counted, tail: numbered.mark, complete };
      tailMark = numbered.mark;
      lineBoundHit = hit;
    }
    // A line still being written is partial only while the job may write: the exit marker,
    // or the caller's word, says it has finished.
    const exitLine = view.exitLine();
    const truncatedAt = exitLine === undefined ? undefined : capOf(exitLine);
    const stillWriting = running && exitLine === undefined;
    const last = view.lines[view.lines.length - 1];
    const partial = last !== undefined && !last.terminated && stillWriting ? view.lines.length - 1 : undefined;
    const completeLines = view.lines.length - (partial === undefined ? 0 : 1);
    const windowStart = completeLines - Math.min(completeLines, lines);
    return {
      view,
      origin,
      lineBoundHit,
      complete: completeLines,
      partial,
      windowStart,
      stillWriting,
      truncatedAt,
      above,
      index,
      tailMark,
    };
  }

  /** The mark of the tail's first line start: from a mark inside the tail, else counted
   *  forward from the nearest mark before it, else the index starts over there. */
  private numberTail(view: View, start: number, index: LineIndex): { mark: Mark; index: LineIndex } {
    let mark = numberFromInside(view, start, index);
    if (mark === undefined) {
      const floor = index.floor(start);
      if (floor !== undefined) {
        mark = this.count.countForward(floor, start);
      } else {
        index = new LineIndex();
        mark = { offset: start, lines: 0, newlines: 0 };
      }
    }
    index.insert(mark);
    return { mark, index };
  }

  /** How far the view above the tail is counted: where counting stopped, whether the line
   *  bound cut there, and whether the whole view was counted. */
  private countAbove(part: Part, prior: Prior | undefined, index: LineIndex): [Mark, boolean, boolean] {
    const { origin, readFrom, tail, tailNewlines, whole } = part;
    const newlinesAfter = (m: Mark) => tail.newlines + tailNewlines - m.newlines;
    const floor = origin === 0 ? index.get(0) : index.floor(readFrom);
    const forward = floor === undefined ? undefined : this.count.firstLineForward(floor, origin);
    const max = this.limits.scanLinesMax;
    // How far down the view must be counted: all of it when asked, else down to the oldest
    // coverage in the view, so that every covered line has a number.
    let needed: number | undefined;
    if (!whole) {
      const lowest = lowestCoverageInView(prior, origin);
      needed = lowest === undefined ? tail.offset : lowest > origin ? lowest : undefined;
    }
    // A mark before the view: the whole view is counted from it, cheaply.
    if (forward !== undefined && newlinesAfter(forward) + (origin > 0 ? 1 : 0) < max) {
      return [forward, false, true];
    }
    // Counting backwards finds the line bound exactly where it cuts; it starts from the
    // lowest mark inside the view the bound has not cut off yet (the tail's own at worst).
    const from = index.marks.find((m) => m.offset >= origin && newlinesAfter(m) < max) ?? tail;
    if (needed !== undefined && from.offset <= needed) return [from, false, false];
    const [first, stop, marks] = this.count.countBack(from, readFrom, origin, newlinesAfter(from), needed ?? 0);
    for (const m of marks) index.insert(m);
    if (stop === "view_start") return [first, false, true];
    if (stop === "line_bound") return [first, true, true];
    return [first, false, false];
  }

  /** Marks every coverage boundary between the first counted line and the tail. */
  private markCoverage(prior: Prior | undefined, first: Mark, tailStart: number, index: LineIndex): void {
    if (prior === undefined) return;
    for (const [s, e] of prior.coverage) {
      for (const x of [s, e]) {
        if (x > first.offset && x < tailStart && index.get(x) === undefined) {
          index.insert(this.count.countForward(index.floor(x)!, x));
        }
      }
    }
  }

  /** Reads the log backwards from its end, in pieces that double from `tailChunk`, until the
   *  part read holds `need` complete content lines after its first line start and reaches back
   *  to `settled` (when that is in the view), or is the whole view. */
  private readTail(size: number, readFrom: number, origin: number, need: number, settled: number | undefined): Tail {
    let lo = size;
    let buf: Uint8Array = new Uint8Array(0);
    // The first piece reaches back past the settled end at once: what was appended must be
    // read anyway, and doubling up to it could read up to twice as much.
    let chunk = settled !== undefined && settled >= origin ? size - settled + this.limits.tailChunk : this.limits.tailChunk;
    for (;;) {
      const newLo = Math.max(lo - Math.min(lo, chunk), readFrom);
      const piece = this.span(newLo, lo - newLo);
      // The log shrank while it was read: the read starts over (`ExactEngine.read`).
      if (piece.length !== lo - newLo) throw shrankWhileRead();
      buf = concat(piece, buf);
      lo = newLo;
      if (lo === readFrom) return { whole: true, buf };
      chunk = Math.min(chunk * 2, this.limits.pieceMax);
      const firstNl = buf.indexOf(NL);
      if (firstNl === -1) continue;
      const start = lo + firstNl + 1;
      // The tail from its first line start, cut into lines once: the same pass counts them and
      // is the view the read goes on with. A tail read again after a longer piece is cut again
      // (the pieces double, so that is at most twice its bytes).
      const view = View.scan(start, size, buf.subarray(firstNl + 1), Number.MAX_SAFE_INTEGER);
      const content = view.completeLines();
      const newlines = view.newlines;
      const reachesSettled = settled === undefined || settled < origin || start <= settled;
      if (content >= need && reachesSettled && newlines < this.limits.scanLinesMax) {
        return { whole: false, start, view, newlines };
      }
    }
  }
}


/** The lowest start of a coverage range that reaches into the view (past `origin`). */
function lowestCoverageInView(prior: Prior | undefined, origin: number): number | undefined {
  return prior?.coverage.find(([, e]) => e > origin)?.[0];
}

/** The first line start in a whole-view buffer (at `origin`, or after the first `\n`). */
function firstLineStart(view: View, origin: number): number | undefined {
  if (origin === 0) return 0;
  const i = view.buf.indexOf(NL);
  return i === -1 ? undefined : view.origin + i + 1;
}

/** Numbers the line start `at` inside the buffer from the first mark at or after it that the
 *  buffer reaches. */
function numberFromInside(view: View, at: number, index: LineIndex): Mark | undefined {
  const end = view.origin + view.buf.length;
  const m = index.ceil(at);
  if (m === undefined || m.offset > end) return undefined;
  const [lines, newlines] = countLines(view.buf, at - view.origin, m.offset - view.origin);
  return { offset: at, lines: m.lines - lines, newlines: m.newlines - newlines };
}
