// The numbers a reply states: the log's size, the new and earlier lines shown, the lines above
// the window never shown or skipped, and the notes they call for.

import { covers, type Ranges } from "./coverage.js";
import { formatBytes, plural } from "./js.js";
import type { Start } from "./render.js";
import { linesAbove, linesBefore, type Scan } from "./scan.js";
import type { Selection } from "./select.js";

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
}

/** The numbers, from the scan, the bookmark's start and the coverage after the read. */
export function count(scan: Scan, start: Start, coverage: Ranges, shownComplete: number[]): Numbers {
  const view = scan.view;
  const coveredAfter = (i: number) => covers(coverage, view.offset(view.lines[i]), view.endOffset(view.lines[i]));
  // The counted lines above the tail come first, known only by count; tail line `i` is number
  // `above + i`. When the whole view is counted these are view lines.
  const above = linesAbove(scan);
  const wholeView = scan.above === undefined || scan.above.complete;
  const counted = above + scan.complete;
  const aboveCov = aboveCovered(scan, coverage);
  let aboveCoveredCount = 0;
  for (const [s, e] of aboveCov) aboveCoveredCount += e - s;
  const unseenInTail: number[] = [];
  for (let i = 0; i < scan.windowStart; i++) if (!coveredAfter(i)) unseenInTail.push(i);
  const unseenAbove = Math.max(0, above - aboveCoveredCount) + unseenInTail.length;
  const lastUnseen = unseenInTail[unseenInTail.length - 1];
  const newestUnseen = lastUnseen !== undefined ? above + lastUnseen : newestUncovered(aboveCov, above);
  let oldestCovered: number | undefined;
  if (aboveCov.length > 0) oldestCovered = aboveCov[0][0];
  else {
    for (let i = 0; i < scan.complete; i++) {
      if (coveredAfter(i)) {
        oldestCovered = above + i;
        break;
      }
    }
  }
  const skippedInTail = (c: number) => unseenInTail.map((i) => above + i).filter((g) => g > c);
  let skippedAbove = 0;
  let oldestSkipped: number | undefined;
  if (oldestCovered !== undefined && oldestCovered < above) {
    const c = oldestCovered;
    const inTail = skippedInTail(c);
    skippedAbove = Math.max(0, above - c - aboveCoveredCount) + inTail.length;
    oldestSkipped = firstUncoveredAfter(aboveCov, c, above) ?? inTail[0];
  } else if (oldestCovered !== undefined) {
    const inTail = skippedInTail(oldestCovered);
    skippedAbove = inTail.length;
    oldestSkipped = inTail[0];
  }
  const settled = start.settledBefore;
  const isNew = (i: number) => settled !== undefined && view.offset(view.lines[i]) >= settled;
  // Lines above the tail are new only when the bookmark settled before all of them.
  const newAbove = scan.above !== undefined && settled !== undefined && settled <= scan.above.counted.offset ? above : 0;
  let newLines = newAbove;
  for (let i = 0; i < scan.complete; i++) if (isNew(i)) newLines++;
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
  };
}

function logWords(scan: Scan, wholeView: boolean, counted: number): string {
  const lines = plural(counted, "line", "lines");
  if (wholeView && scan.origin === 0 && !scan.lineBoundHit) return `log at ${counted} ${lines}`;
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

/** The highest line number below `n` that no interval covers. */
function newestUncovered(covered: [number, number][], n: number): number | undefined {
  let top = n;
  for (let k = covered.length - 1; k >= 0; k--) {
    const [s, e] = covered[k];
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
