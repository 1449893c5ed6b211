// What the engine shows for one read, and the coverage that results. Four phases, one module
// each: which lines the text carries (`select`), the coverage after it (`nextCoverage`), the
// numbers the text states (`numbers`), and the text (`text`); `respond` runs them.

import type { Ranges } from "./coverage.js";
import type { Limits } from "./limits.js";
import { addNotes, count } from "./numbers.js";
import type { Scan } from "./scan.js";
import { nextCoverage, partialLine, select, shownLines } from "./select.js";
import type { Start } from "./start.js";
import { compose } from "./text.js";
import type { Counts, Job, ReadKind, Reply, Request } from "./types.js";
import { nth } from "./nth.js";

export interface Outcome {
  reply: Reply;
  /** The extent of the partial line as the caller has now seen it. */
  partialSeen: [number, number] | undefined;
  coverage: Ranges;
}

/** The reply to a read, or `undefined` when it must print the view's line count and the scan
 *  counted only part of the view: the engine then scans again, counting all of it. */
export function respond(
  limits: Limits,
  job: Job,
  request: Request,
  lines: number,
  window: number,
  scan: Scan,
  start: Start,
): Outcome | undefined {
  const raw = request.raw === true;
  const partial = partialLine(scan, start);
  const sel = select(limits, raw, lines, scan, start, partial.fresh);
  const [coverage, forgotten] = nextCoverage(limits, scan, start, sel.shownComplete);
  const numbers = count(scan, start, coverage, sel.shownComplete);
  if (numbers.total === undefined && sel.body === undefined && !raw) return undefined;
  addNotes(raw, numbers, forgotten, sel);
  const [text, body] = compose(limits, raw, window, scan, start, sel, numbers, partial.pending);
  const counts: Counts = {
    totalLines: numbers.total ?? null,
    newLines: numbers.newLines,
    selected: sel.selected,
    shown: sel.shownComplete.length,
    newShown: numbers.newShown,
    earlierShown: numbers.earlierShown,
    leftOut: sel.leftOut,
    unseenAbove: numbers.total === undefined ? null : numbers.unseenAbove,
    skippedAbove: numbers.skippedAbove,
    forgottenRanges: forgotten,
    partialShown: sel.partialShown,
  };
  const kind: ReadKind = raw ? "raw" : !numbers.continuing ? "first" : sel.body !== undefined ? "delta" : "nothing_new";
  let partialSeen: [number, number] | undefined;
  if (scan.partial !== undefined && sel.partialShown) {
    const l = nth(scan.view.lines, scan.partial);
    partialSeen = [scan.view.offset(l), scan.view.endOffset(l)];
  } else if (scan.partial !== undefined && partial.pending) {
    partialSeen = partial.seenBefore;
  }
  return {
    partialSeen,
    coverage,
    reply: {
      text,
      body,
      isError: false,
      kind,
      reset: start.reset ?? null,
      shown: shownLines(scan, start.generation, sel),
      counts,
      notes: sel.notes,
      details: details(job, raw, window, counts, sel.notes, scan.truncatedAt),
      bytesRead: 0,
    },
  };
}

/** The keys every read's `details` starts with, in upstream's order. */
export function detailsHead(job: Job, linesShown: number, condensed: boolean): Record<string, unknown> {
  return { id: job.id, linesShown, logPath: job.path, notFound: false, condensed };
}

/** The keys every read's `details` ends with: the view, and the wrapper's cap when it set one. */
export function detailsTail(d: Record<string, unknown>, window: number, truncatedAt: number | undefined): void {
  d.windowBytes = window;
  if (truncatedAt !== undefined) d.truncatedAtBytes = Number.isFinite(truncatedAt) ? truncatedAt : null;
}

/** The reply's `details`: upstream's keys in its order, the exact engine's after its own. */
function details(
  job: Job,
  raw: boolean,
  window: number,
  counts: Counts,
  notes: string[],
  truncatedAt: number | undefined,
): Record<string, unknown> {
  const d = detailsHead(job, counts.shown + (counts.partialShown ? 1 : 0), !raw);
  d.newLines = counts.newLines;
  d.earlierLines = counts.earlierShown;
  d.totalLines = counts.totalLines;
  d.leftOut = counts.leftOut;
  d.unseenAbove = counts.unseenAbove;
  d.skippedAbove = counts.skippedAbove;
  if (notes.length > 0) d.notes = [...notes];
  detailsTail(d, window, truncatedAt);
  return d;
}
