// Counting lines the engine does not keep: forward from a mark to an offset, forward to the
// view's first line, and backwards from a line start to the view's start or upstream's line
// bound, reading in pieces and keeping at most the line being classified (the count.rs module
// of the Rust engine).

import type { Limits } from "./limits.js";
import { countLines, type Mark } from "./lineIndex.js";
import { readSpan, shrankWhileRead, type LogSource } from "./source.js";
import { isContent, lineTextEnd } from "./view.js";

const NL = 0x0a;

/** Why counting backwards stopped. */
export type Stop = "view_start" | "line_bound" | "enough";

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** What counting reads from: the log, the limits, and the count of bytes read. */
export class Counter {
  constructor(
    private readonly log: LogSource,
    private readonly limits: Limits,
    private readonly counter: { bytesRead: number },
  ) {}

  private span(offset: number, len: number): Uint8Array {
    return readSpan(this.log, offset, len, this.counter);
  }

  /** Numbers the last line start at or before `to`, reading forward from the mark `from`. */
  countForward(from: Mark, to: number): Mark {
    let mark = from;
    let pending: Uint8Array = new Uint8Array(0);
    let pos = from.offset;
    let chunk = this.limits.tailChunk;
    while (pos < to) {
      const len = Math.min(chunk, to - pos);
      const piece = this.span(pos, len);
      if (piece.length !== len) throw shrankWhileRead();
      pos += len;
      pending = concat(pending, piece);
      const lastNl = pending.lastIndexOf(NL);
      if (lastNl !== -1) {
        mark = advance(mark, pending, lastNl + 1);
        pending = pending.slice(lastNl + 1);
      }
      chunk = Math.min(chunk * 2, this.limits.pieceMax);
    }
    return mark;
  }

  /** Numbers the view's first line start by reading forward from the mark `from` at or
   *  before the byte in front of the view. */
  firstLineForward(from: Mark, origin: number): Mark {
    if (origin === from.offset) return from;
    let buf = this.span(from.offset, origin - from.offset);
    if (buf.length !== origin - from.offset) throw shrankWhileRead();
    // The line that straddles the view's start ends at the first `\n` at or after `origin − 1`.
    let searchFrom = buf.length - 1;
    let step = Math.min(256, this.limits.pieceMax);
    for (;;) {
      const i = buf.indexOf(NL, searchFrom);
      if (i !== -1) return advance(from, buf, i + 1);
      searchFrom = buf.length;
      const more = this.span(from.offset + buf.length, step);
      step = Math.min(step * 2, this.limits.pieceMax);
      // The view holds a line start after `origin` (the tail's), so a `\n` ends this line
      // before the log's end, unless the log shrank.
      if (more.length === 0) throw shrankWhileRead();
      buf = concat(buf, more);
    }
  }

  /** Counts backwards from the line start `from` to the view's first line, keeping only the
   *  line being classified, marking a line start every `markSpacing` bytes; stops where
   *  upstream's line bound cuts, or at `downTo`. */
  countBack(from: Mark, readFrom: number, origin: number, newlinesAfter: number, downTo: number): [Mark, Stop, Mark[]] {
    const max = this.limits.scanLinesMax;
    const spacing = this.limits.markSpacing;
    let cur = from;
    let seen = newlinesAfter;
    const marks: Mark[] = [];
    let lastMarked = from.offset;
    // `buf` holds the bytes `[lo, cur.offset)`.
    let lo = cur.offset;
    let buf: Uint8Array = new Uint8Array(0);
    let chunk = this.limits.tailChunk;
    for (;;) {
      if (cur.offset === 0 || (origin > 0 && cur.offset === origin)) return [cur, "view_start", marks];
      if (cur.offset <= downTo) return [cur, "enough", marks];
      seen++;
      if (seen >= max && cur.offset - 1 > origin) return [cur, "line_bound", marks];
      const nlAt = cur.offset - 1;
      let searchEnd = nlAt;
      let prevNl: number | undefined;
      for (;;) {
        if (searchEnd > lo) {
          const i = searchEnd - lo === 0 ? -1 : buf.lastIndexOf(NL, searchEnd - lo - 1);
          if (i !== -1) {
            prevNl = lo + i;
            break;
          }
          searchEnd = lo;
        }
        if (lo === readFrom) break;
        const newLo = Math.max(lo - Math.min(lo, chunk), readFrom);
        const piece = this.span(newLo, lo - newLo);
        if (piece.length !== lo - newLo) throw shrankWhileRead();
        buf = concat(piece, buf);
        lo = newLo;
        chunk = Math.min(chunk * 2, this.limits.pieceMax);
      }
      let start: number;
      if (prevNl !== undefined && prevNl >= readFrom) start = prevNl + 1;
      else if (origin > 0) return [cur, "view_start", marks];
      else start = 0;
      const content = isContent(buf, start - lo, lineTextEnd(buf, start - lo, nlAt - lo));
      cur = { offset: start, lines: cur.lines - (content ? 1 : 0), newlines: cur.newlines - 1 };
      if (lastMarked - start >= spacing) {
        marks.push(cur);
        lastMarked = start;
      }
      buf = buf.subarray(0, start - lo);
    }
  }
}

function advance(from: Mark, bytes: Uint8Array, len: number): Mark {
  const [content, newlines] = countLines(bytes, 0, len);
  return { offset: from.offset + len, lines: from.lines + content, newlines: from.newlines + newlines };
}
