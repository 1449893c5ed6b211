// The line index: line numbers at known offsets of one log generation, so that a read counts
// the view's lines without reading all of it.
//
// Invariants (kept by every method and by the engine that inserts marks):
// - marks are sorted by offset, strictly increasing, each at a line start of the bookmark's
//   generation at or before its settled end, where the bytes before it do not change while
//   the generation lasts;
// - for marks `a` before `b`, `b.lines − a.lines` is the number of content lines that start in
//   `[a.offset, b.offset)` and `b.newlines − a.newlines` the number of `\n` bytes there (the
//   numbers count from an arbitrary anchor: only differences mean anything);
// - every coverage boundary that is a line start is marked, and no gap a line start could
//   close is wider than `markSpacing`.
//
// The index is a cache: a read without it gives the same reply, only by reading more. A
// bookmark's snapshot leaves it out.

import { isContent, lineTextEnd } from "./view.js";
import { nth } from "./nth.js";

/** Line numbers at one line start. */
export interface Mark {
  offset: number;
  /** Content lines starting before `offset`, from the index's anchor. */
  lines: number;
  /** `\n` bytes before `offset`, from the index's anchor. */
  newlines: number;
}

const sameMark = (a: Mark, b: Mark) =>
  a.offset === b.offset && a.lines === b.lines && a.newlines === b.newlines;

export class LineIndex {
  /** Set when a mark contradicts its neighbours (the log changed under the index); the read
   *  then counts afresh. Never saved. */
  poisoned = false;

  constructor(readonly marks: Mark[] = []) {}

  static of(marks: readonly Mark[]): LineIndex {
    return new LineIndex(marks.map((m) => ({ ...m })));
  }

  isEmpty(): boolean {
    return this.marks.length === 0;
  }

  /** How many marks lie at or before `offset` (`strict`: before it). */
  private partition(offset: number, strict: boolean): number {
    let lo = 0;
    let hi = this.marks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const o = nth(this.marks, mid).offset;
      if (strict ? o < offset : o <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The last mark at or before `offset`. */
  floor(offset: number): Mark | undefined {
    const i = this.partition(offset, false);
    return i > 0 ? this.marks[i - 1] : undefined;
  }

  /** The first mark at or after `offset`. */
  ceil(offset: number): Mark | undefined {
    return this.marks[this.partition(offset, true)];
  }

  /** The mark at exactly `offset`. */
  get(offset: number): Mark | undefined {
    const m = this.floor(offset);
    return m !== undefined && m.offset === offset ? m : undefined;
  }

  /** Adds a mark; one that contradicts the index poisons it. */
  insert(mark: Mark): void {
    const i = this.partition(mark.offset, true);
    const at = this.marks[i];
    if (at !== undefined && at.offset === mark.offset) {
      if (!sameMark(at, mark)) this.poisoned = true;
      return;
    }
    const before = this.marks[i - 1];
    const ok =
      (before === undefined || (before.lines <= mark.lines && before.newlines < mark.newlines)) &&
      (at === undefined || (mark.lines <= at.lines && mark.newlines < at.newlines));
    if (!ok) this.poisoned = true;
    this.marks.splice(i, 0, { ...mark });
  }

  /**
   * Drops the marks no later read needs: those before the lowest line any view can reach (but
   * the last one before it) and, between `pinned` marks (sorted), all but enough to leave no
   * gap wider than `spacing` that a dropped mark would have closed.
   */
  thin(lowestViewStart: number, spacing: number, pinned: number[]): void {
    const firstNeeded = Math.max(0, this.partition(lowestViewStart, false) - 1);
    const pinnedSet = new Set(pinned);
    const kept: Mark[] = [];
    let pending: Mark | undefined;
    for (const m of this.marks.slice(firstNeeded)) {
      if (kept.length === 0) {
        kept.push(m);
        continue;
      }
      if (m.offset - nth(kept, kept.length - 1).offset > spacing && pending !== undefined) {
        kept.push(pending);
        pending = undefined;
      }
      const last = nth(kept, kept.length - 1).offset;
      if (pinnedSet.has(m.offset) || m.offset - last > spacing) {
        kept.push(m);
        pending = undefined;
      } else {
        pending = m;
      }
    }
    if (pending !== undefined) kept.push(pending);
    this.marks.splice(0, this.marks.length, ...kept);
  }
}

/** Content lines and `\n` bytes in `buf[from, to)`, which starts at a line start; bytes after
 *  the last `\n` are not a line yet and are not counted. */
export function countLines(buf: Uint8Array, from = 0, to = buf.length): [number, number] {
  const part = from === 0 && to === buf.length ? buf : buf.subarray(from, to);
  let content = 0;
  let newlines = 0;
  let start = 0;
  for (let nl = part.indexOf(0x0a); nl !== -1; nl = part.indexOf(0x0a, nl + 1)) {
    newlines++;
    if (isContent(part, start, lineTextEnd(part, start, nl))) content++;
    start = nl + 1;
  }
  return [content, newlines];
}
