import { nth } from "./nth.js";
// Coverage: the byte ranges of a log generation whose content lines the caller was shown.
//
// Invariants (kept by every function here):
// - ranges are sorted, disjoint and non-touching: `r[i][0] < r[i][1] < r[i + 1][0]`;
// - a line `[offset, end)` counts as covered only when one range holds all of it, so a line
//   that grew after it was shown (a completed partial line) is not covered;
// - a range only ever holds lines a reply really carried: ranges are built from shown lines
//   and the covered lines between them, never widened on a guess.

/** Half-open byte ranges `[start, end)`. */
export type Ranges = [number, number][];

/** The index of the first range whose start is past `offset` (ranges sorted by start). */
function partitionStarts(ranges: Ranges, pred: (start: number) => boolean): number {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(nth(ranges, mid)[0])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether `[start, end)` lies inside one range. */
export function covers(ranges: Ranges, start: number, end: number): boolean {
  const i = partitionStarts(ranges, (s) => s <= start);
  return i > 0 && end <= nth(ranges, i - 1)[1];
}

/**
 * Replaces everything from `from` on with `runs` (sorted, disjoint, all at or after `from`),
 * keeping what lies before `from` cut at `from`; a range cut at `from` and a run starting
 * there join, because the line at `from` was covered before and still is.
 */
export function rebuildFrom(ranges: Ranges, from: number, runs: Ranges): Ranges {
  const keep = partitionStarts(ranges, (s) => s < from);
  const out: Ranges = ranges.slice(0, keep).map(([s, e]) => [s, e]);
  if (out.length > 0) {
    const last = nth(out, out.length - 1);
    last[1] = Math.min(last[1], from);
  }
  for (const [s, e] of runs) {
    const last = out[out.length - 1];
    if (last !== undefined && last[1] >= s) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** Forgets the oldest ranges until at most `max` remain; returns how many went. Forgetting can
 *  only make lines be sent again, never hide them. */
export function forgetOldest(ranges: Ranges, max: number): number {
  const excess = Math.max(0, ranges.length - max);
  ranges.splice(0, excess);
  return excess;
}
