// Settling a read: where its complete lines end (a partial line's own start, read back when
// the view cut it), the fingerprints of the bytes before that end and of the partial line the
// caller saw, and the line index the next read starts from (the settle.rs module of the Rust
// engine).

import { print } from "./bookmark.js";
import type { Ranges } from "./coverage.js";
import type { Limits } from "./limits.js";
import { LineIndex, type Mark } from "./lineIndex.js";
import { nth } from "./nth.js";
import type { Scan } from "./scan.js";
import { readSpan, SourceError, type LogSource, type LogStat } from "./source.js";
import type { Start } from "./start.js";
import type { BytePrint } from "./types.js";
import type { View } from "./view.js";

const NL = 0x0a;

/** Where the read's complete lines end. An unterminated last segment may still grow into a new
 *  line while the job runs; it starts where it really starts, even when the buffer cut it. */
export function settledEndOf(
  log: LogSource,
  stat: LogStat,
  scan: Scan,
  start: Start,
  searchPiece: number,
  counter: { bytesRead: number },
): number {
  const tail = unterminatedTailStart(scan.view);
  if (tail === undefined || !scan.stillWriting) return stat.size;
  return tail > scan.view.origin ? tail : partialLineStart(log, start, tail, searchPiece, counter);
}

/** The extent of the partial line this read found at the log's end, shown or not: from its
 *  own start (`settledEnd`, read back when the view cut it) to the log's end. A view that
 *  starts inside a progress line longer than it leaves the line out of the view, but the
 *  caller's bookmark still stands on it, so a redraw of it is a change the next read sees.
 *  `undefined` when the log ends with a complete line, or the job has finished. */
export function partialExtent(scan: Scan, settledEnd: number, size: number): [number, number] | undefined {
  return scan.stillWriting && settledEnd < size ? [settledEnd, size] : undefined;
}

/** The fingerprint of the last `printBytes` (`partialPrintBytes`) of the partial line this read
 *  found (all of a short one), shown or not, so that the next read's check costs at most that
 *  many bytes. */
export function partialPrintOf(
  log: LogSource,
  scan: Scan,
  seen: [number, number] | undefined,
  printBytes: number,
  counter: { bytesRead: number },
): BytePrint | undefined {
  if (seen === undefined) return undefined;
  return printOf(log, scan, Math.max(seen[0], seen[1] - printBytes), seen[1], counter);
}

/** The fingerprint of the `printBytes` (`settledPrintBytes`) before the settled end, from the
 *  tail when it holds them. */
export function settledPrintOf(
  log: LogSource,
  scan: Scan,
  settledEnd: number,
  printBytes: number,
  counter: { bytesRead: number },
): BytePrint | undefined {
  const view = scan.view;
  if (settledEnd > view.origin + view.buf.length) return undefined;
  return printOf(log, scan, Math.max(0, settledEnd - printBytes), settledEnd, counter);
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

/** The file offset where the log's unterminated last segment starts, if it has one. */
function unterminatedTailStart(view: View): number | undefined {
  const buf = view.buf;
  if (buf.length === 0 || buf[buf.length - 1] === NL) return undefined;
  return view.origin + buf.lastIndexOf(NL) + 1;
}

/** Where the partial line holding byte `tail − 1` starts, when the view cut it: searched back
 *  no further than the last read's settled end, and over none of the last read's unterminated
 *  segment, so a progress line longer than the view costs each poll what was appended. */
function partialLineStart(
  log: LogSource,
  start: Start,
  tail: number,
  searchPiece: number,
  counter: { bytesRead: number },
): number {
  const { settledBefore: settled, sizeBefore: size } = start;
  if (settled !== undefined && size !== undefined && settled <= tail) {
    const searchedFrom = Math.min(Math.max(size, settled), tail);
    const at = lineStartBefore(log, tail, searchedFrom, searchPiece, counter);
    return at === searchedFrom ? settled : at;
  }
  return lineStartBefore(log, tail, 0, searchPiece, counter);
}

/** Where the line holding byte `start − 1` begins, searched back in pieces of `pieceLen` bytes
 *  (`Limits.lineSearchPiece`) no further than `floor`; an unreadable piece ends the search
 *  where it stands. */
function lineStartBefore(
  log: LogSource,
  start: number,
  floor: number,
  pieceLen: number,
  counter: { bytesRead: number },
): number {
  let end = start;
  while (end > floor) {
    const from = Math.max(end - Math.min(end, pieceLen), floor);
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
export function nextIndex(limits: Limits, scan: Scan, coverage: Ranges, settledEnd: number): LineIndex {
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
