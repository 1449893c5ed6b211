// The numbers a reply states: the log's size, the new and earlier lines shown, the lines above
// the window never shown or skipped, and the notes they call for.

import type { Ranges } from "./coverage.js";
import { formatBytes, plural } from "./js.js";
import type { Start } from "./start.js";
import { linesAbove, linesBefore, wholeLog, type Scan } from "./scan.js";
import type { Selection } from "./select.js";
import { nth } from "./nth.js";

export interface Numbers {
  /** Whether the read continues the bookmark's generation. */
  continuing: boolean;
  /** Content lines counted: the view's, when `total` is known. */
  counted: number;
  /** The view's line count, when the whole view was counted. */
  total: number | undefined;
  /** Lines above the window never shown, and the number of the newest of them. */
  unseenAbove: number;
  newestUnseen: number | undefined;
  /** Of those, the ones newer than a shown line, and the number of the oldest of them. */
  skippedAbove: number;
  oldestSkipped: number | undefined;
  newLines: number;
  newShown: number;
  earlierShown: number;
  /** "log at N lines", "N lines in view", or the lazy count's words. */
  logWords: string;
  /** Whether the count is the whole log's (`wholeLog`): only then may a read with no line to
   *  show call the log empty. */
  wholeLog: boolean;
}


/** The numbers, from the scan, the bookmark's start and the coverage after the read. */
export function count(scan: Scan, start: Start, coverage: Ranges, shownComplete: number[]): Numbers {
  const view = scan.view;
  const cursor = new CoverageCursor(coverage);
  const coveredAfter = (i: number) => cursor.covers(view.offset(nth(view.lines, i)), view.endOffset(nth(view.lines, i)));
  // The counted lines above the tail come first, known only by count; tail line `i` is number
  // `above + i`. When the whole view is counted these are view lines.
  const above = linesAbove(scan);
  const wholeView = scan.above === undefined || scan.above.complete;
  const counted = above + scan.complete;
  const aboveCov = aboveCovered(scan, coverage);
  let aboveCoveredCount = 0;
  for (const [s, e] of aboveCov) aboveCoveredCount += e - s;
  // One walk of the tail in file order, counting the lines above the window not covered (and
  // of those, the ones after the first covered tail line), and finding the first covered tail
  // line (looked for past the window only while none is found).
  const unseen = { count: 0, first: -1, last: -1, afterCovered: 0, firstAfterCovered: -1 };
  let firstCoveredInTail = -1;
  for (let i = 0; i < scan.windowStart; i++) {
    if (coveredAfter(i)) {
      if (firstCoveredInTail < 0) firstCoveredInTail = i;
      continue;
    }
    if (unseen.count++ === 0) unseen.first = i;
    unseen.last = i;
    if (firstCoveredInTail >= 0 && unseen.afterCovered++ === 0) unseen.firstAfterCovered = i;
  }
  for (let i = scan.windowStart; firstCoveredInTail < 0 && i < scan.complete; i++) {
    if (coveredAfter(i)) firstCoveredInTail = i;
  }
  const unseenAbove = Math.max(0, above - aboveCoveredCount) + unseen.count;
  const newestUnseen = unseen.count > 0 ? above + unseen.last : newestUncovered(aboveCov, above);
  let skippedAbove = 0;
  let oldestSkipped: number | undefined;
  if (aboveCov.length > 0) {
    // The oldest covered line lies above the tail: every unseen tail line is newer.
    const oldestCovered = nth(aboveCov, 0)[0];
    skippedAbove = Math.max(0, above - oldestCovered - aboveCoveredCount) + unseen.count;
    oldestSkipped = firstUncoveredAfter(aboveCov, oldestCovered, above) ?? (unseen.count > 0 ? above + unseen.first : undefined);
  } else if (firstCoveredInTail >= 0) {
    // The oldest covered line is in the tail: the unseen lines after it are skipped.
    skippedAbove = unseen.afterCovered;
    oldestSkipped = unseen.afterCovered > 0 ? above + unseen.firstAfterCovered : undefined;
  }
  const settled = start.settledBefore;
  const isNew = (i: number) => settled !== undefined && view.offset(nth(view.lines, i)) >= settled;
  // Lines above the tail are new only when the bookmark settled before all of them.
  const newAbove = scan.above !== undefined && settled !== undefined && settled <= scan.above.counted.offset ? above : 0;
  // The tail's lines are in file order: the new ones are those from the first new one on.
  const newLines = newAbove + (settled === undefined ? 0 : scan.complete - firstNew(view, scan.complete, settled));
  const newShown = shownComplete.filter(isNew).length;
  const continuing = settled !== undefined;
  return {
    continuing,
    counted,
    total: wholeView ? counted : undefined,
    unseenAbove,
    newestUnseen,
    skippedAbove,
    oldestSkipped,
    newLines,
    newShown,
    earlierShown: continuing ? shownComplete.length - newShown : 0,
    logWords: logWords(scan, wholeView, counted),
    wholeLog: wholeLog(scan),
  };
}

function logWords(scan: Scan, wholeView: boolean, counted: number): string {
  const lines = plural(counted, "line", "lines");
  if (wholeView && wholeLog(scan)) return `log at ${counted} ${lines}`;
  if (wholeView) return `${counted} ${lines} in view`;
  const bytes = formatBytes(scan.view.size - scan.above!.counted.offset);
  return `${counted} ${lines} in the last ${bytes} (the view above is not counted yet)`;
}

/** The notes the numbers call for: forgotten coverage, lines skipped above the window, a
 *  partial line still being written. */
export function addNotes(raw: boolean, n: Numbers, forgotten: number, sel: Selection): void {
  if (forgotten > 0) {
    sel.notes.push(
      `bookmark full: forgot the ${forgotten} oldest shown ${plural(forgotten, "range", "ranges")} — their lines may be shown again`,
    );
  }
  if (n.oldestSkipped !== undefined && sel.body !== undefined && !raw) {
    sel.notes.push(
      `${n.skippedAbove} skipped ${plural(n.skippedAbove, "line", "lines")} above this window — lines: ${n.counted - n.oldestSkipped} reaches ${plural(n.skippedAbove, "it", "them")}`,
    );
  }
  if (sel.partialShown && !raw) {
    sel.notes.push("the last line is still being written; it is shown again once complete");
  }
}

/** The view lines above the tail that `coverage` covers, as sorted half-open intervals of line
 *  numbers (touching ones stay apart). */
function aboveCovered(scan: Scan, coverage: Ranges): [number, number][] {
  const a = scan.above;
  if (a === undefined) return [];
  const out: [number, number][] = [];
  for (const [s, e] of coverage) {
    if (!(s < a.tail.offset && e > a.counted.offset)) continue;
    const from = linesBefore(a, s, scan.index);
    const to = linesBefore(a, e, scan.index);
    if (from < to) out.push([from, to]);
  }
  return out;
}

/**
 * Which ranges of a coverage cover lines asked about in file order: a cursor on the last range
 * that starts at or before the line replaces a search per line.
 */
class CoverageCursor {
  /** The last range starting at or before the last line asked about, or -1. */
  private at = -1;

  constructor(private readonly ranges: Ranges) {}

  /** Whether `[start, end)` lies inside one range; `start` never decreases between calls. */
  covers(start: number, end: number): boolean {
    const r = this.ranges;
    while (this.at + 1 < r.length && nth(r, this.at + 1)[0] <= start) this.at++;
    return this.at >= 0 && end <= nth(r, this.at)[1];
  }
}

/** The first of the view's first `n` lines that starts at or after `settled`, or `n`. */
function firstNew(view: Scan["view"], n: number, settled: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (view.offset(nth(view.lines, mid)) < settled) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The highest line number below `n` that no interval covers. */
function newestUncovered(covered: [number, number][], n: number): number | undefined {
  let top = n;
  for (let k = covered.length - 1; k >= 0; k--) {
    const [s, e] = nth(covered, k);
    if (e < top) break;
    top = s;
  }
  return top > 0 ? top - 1 : undefined;
}

/** The lowest line number in `(after, n)` that no interval covers. */
function firstUncoveredAfter(covered: [number, number][], after: number, n: number): number | undefined {
  let g = after + 1;
  for (const [s, e] of covered) {
    if (e <= g) continue;
    if (s > g) break;
    g = e;
  }
  return g < n ? g : undefined;
}
