// Which lines a read's text carries, and the coverage that results: the window verbatim for a
// raw read; else the window's lines not covered (and a partial line that grew), condensed
// newest first within the budget.

import { condenseNewestFirst, type Run } from "./condense.js";
import { covers, forgetOldest, rebuildFrom, type Ranges } from "./coverage.js";
import { exactInteger, plural } from "./js.js";
import type { Limits } from "./limits.js";
import type { Start } from "./start.js";
import { linesAbove, wholeLog, type Scan } from "./scan.js";
import type { ShownLine } from "./types.js";
import { nth } from "./nth.js";

/** The partial line, against the one the caller last saw. */
export interface PartialLine {
  /** The partial line, when it grew since a condensed reply carried it (or was never carried). */
  fresh: number | undefined;
  /** A partial line is there but unchanged, so not offered. */
  pending: boolean;
  /** The extent the caller saw, when continuing a generation. */
  seenBefore: [number, number] | undefined;
}

const extent = (scan: Scan, i: number): [number, number] => {
  const l = nth(scan.view.lines, i);
  return [scan.view.offset(l), scan.view.endOffset(l)];
};

export function partialLine(scan: Scan, start: Start): PartialLine {
  const seenBefore = start.settledBefore !== undefined ? start.partialSeen : undefined;
  let fresh = scan.partial;
  if (fresh !== undefined && seenBefore !== undefined) {
    const [o, e] = extent(scan, fresh);
    if (o === seenBefore[0] && e === seenBefore[1]) fresh = undefined;
  }
  return { fresh, pending: scan.partial !== undefined && fresh === undefined, seenBefore };
}

/** What the text carries. */
export interface Selection {
  /** View indices of the complete lines it carries, ascending. */
  shownComplete: number[];
  partialShown: boolean;
  notes: string[];
  /** Candidates the budget left out. */
  leftOut: number;
  /** Lines selected before the budget (the window for a raw read, else the candidates). */
  selected: number;
  /** The body; `undefined` when there is nothing to show. */
  body: string | undefined;
}

const coveredBy = (coverage: Ranges, scan: Scan, i: number) => {
  const [o, e] = extent(scan, i);
  return covers(coverage, o, e);
};

export function select(
  limits: Limits,
  raw: boolean,
  lines: number,
  scan: Scan,
  start: Start,
  freshPartial: number | undefined,
): Selection {
  const view = scan.view;
  const sel: Selection = { shownComplete: [], partialShown: false, notes: [], leftOut: 0, selected: 0, body: undefined };
  const windowLines: number[] = [];
  for (let i = scan.windowStart; i < scan.complete; i++) windowLines.push(i);
  const text = (i: number) => view.text(nth(view.lines, i));
  if (raw) {
    sel.shownComplete = windowLines;
    sel.partialShown = scan.partial !== undefined;
    sel.selected = windowLines.length;
    const texts = windowLines.map(text);
    if (scan.partial !== undefined) texts.push(text(scan.partial));
    sel.body = texts.length > 0 ? texts.join("\n") : wholeLog(scan) ? "(empty log)" : "(nothing in view)";
    return sel;
  }
  const candidates = windowLines.filter((i) => !coveredBy(start.coverage, scan, i));
  sel.selected = candidates.length;
  if (candidates.length === 0 && freshPartial === undefined) return sel;
  const partial: Run | undefined = freshPartial === undefined ? undefined : { first: freshPartial, texts: [text(freshPartial)] };
  const condensed = condenseNewestFirst(limits, runsOf(candidates, text), partial);
  sel.shownComplete = condensed.shown.sort((a, b) => a - b);
  sel.partialShown = condensed.partialShown;
  sel.leftOut = sel.selected - sel.shownComplete.length;
  if (sel.leftOut > 0) {
    const again = lines === Infinity ? "the same `lines`" : `lines: ${exactInteger(lines)}`;
    sel.notes.push(
      `${sel.leftOut} older ${plural(sel.leftOut, "line", "lines")} left out by the ${limits.textBudget}-char budget — the next read with ${again} returns them`,
    );
  }
  sel.notes.push(...condensed.notes);
  sel.body = condensed.body;
  return sel;
}

/** Coverage after the read: it gains exactly the shown complete lines; then the oldest ranges
 *  over the bound are forgotten (how many is the second value). */
export function nextCoverage(limits: Limits, scan: Scan, start: Start, shownComplete: number[]): [Ranges, number] {
  const view = scan.view;
  let coverage = start.coverage;
  if (scan.windowStart < scan.complete) {
    // Runs are rebuilt over the window and the content line just above it, so that covered
    // lines join across the blank and wrapper lines between them.
    const shown = new Set(shownComplete);
    const from = Math.max(0, scan.windowStart - 1);
    const runs: Ranges = [];
    let open = false;
    for (let i = from; i < scan.complete; i++) {
      const l = nth(view.lines, i);
      if (coveredBy(start.coverage, scan, i) || shown.has(i)) {
        if (open) nth(runs, runs.length - 1)[1] = view.endOffset(l);
        else {
          runs.push([view.offset(l), view.endOffset(l)]);
          open = true;
        }
      } else {
        open = false;
      }
    }
    coverage = rebuildFrom(coverage, view.offset(nth(view.lines, from)), runs);
  } else if (scan.partial !== undefined) {
    // Without a rebuild a partial line could still be covered (a finished job's last line,
    // written again by a running job): a partial line is never covered.
    coverage = rebuildFrom(coverage, view.offset(nth(view.lines, scan.partial)), []);
  } else {
    coverage = coverage.map(([s, e]) => [s, e]);
  }
  const forgotten = forgetOldest(coverage, limits.coverageRangesMax);
  return [coverage, forgotten];
}

/** The lines the text carries, as the reply claims them: the complete ones, then the partial. */
export function shownLines(scan: Scan, generation: number, sel: Selection): ShownLine[] {
  const shown = sel.shownComplete.map((i) => shownLine(scan, i, generation, false));
  if (sel.partialShown) shown.push(shownLine(scan, scan.partial!, generation, true));
  return shown;
}

function shownLine(scan: Scan, index: number, generation: number, partial: boolean): ShownLine {
  const [offset, end] = extent(scan, index);
  const counted = scan.above === undefined || scan.above.complete;
  return { generation, offset, end, viewLine: counted ? linesAbove(scan) + index + 1 : null, partial };
}

/** The candidates (ascending) grouped into runs of adjacent lines, with their texts. */
export function runsOf(candidates: number[], text: (i: number) => string): Run[] {
  const runs: Run[] = [];
  for (const i of candidates) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last.first + last.texts.length === i) last.texts.push(text(i));
    else runs.push({ first: i, texts: [text(i)] });
  }
  return runs;
}
