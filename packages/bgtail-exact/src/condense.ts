// The condenser of the `bgtail-exact-1` format: escape sequences stripped (OSC too), NUL shown
// as ␀, runs of equal lines folded, the per-line cap, and the budget walked newest first with
// a marker between runs of lines that are not adjacent in the log.

import type { Limits } from "./limits.js";
import { plural, truncateUtf16 } from "./js.js";
import { nth } from "./nth.js";

/** Upstream's pattern (CSI and a few ESC sequences), after OSC (`ESC ] … BEL`/ST/end). */
const ANSI =
  /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\|$)|[\u001b\u009b][[()#;?]*(?:[0-9]{1,4}(?:;[0-9]{0,4})*)?[0-9A-ORZcf-nq-uy=><]/g;

/** A line as the format prints it before any cap or fold, and how many sequences went. */
export function clean(line: string): [string, number] {
  let text = line;
  let sequences = 0;
  if (text.includes("\u001b") || text.includes("\u009b")) {
    text = text.replace(ANSI, () => {
      sequences++;
      return "";
    });
  }
  if (text.includes("\0")) text = text.replaceAll("\0", "\u2400");
  return [text, sequences];
}

/** One line of condensed output: a line, or a folded run standing for all its lines. */
export interface Emission {
  text: string;
  /** Index of the first source line in the condenser's input. */
  first: number;
  /** How many source lines it stands for (more than one only for a fold). */
  count: number;
  lineCapped: boolean;
  ansiSequences: number;
}

/** The emissions of `lines`, in input order. */
export function buildEmissions(lines: string[], limits: Limits): Emission[] {
  const cleaned: string[] = [];
  const sequences: number[] = [];
  for (const line of lines) {
    const [text, n] = clean(line);
    cleaned.push(text);
    sequences.push(n);
  }
  const out: Emission[] = [];
  let i = 0;
  while (i < cleaned.length) {
    let j = i + 1;
    while (j < cleaned.length && cleaned[j] === cleaned[i]) j++;
    const run = j - i;
    if (run >= limits.foldThreshold) {
      let ansi = 0;
      for (let k = i; k < j; k++) ansi += nth(sequences, k);
      const e = capped(nth(cleaned, i), i, run, ansi, limits);
      e.text += `  [x${run}]`;
      out.push(e);
    } else {
      for (let k = i; k < j; k++) out.push(capped(nth(cleaned, k), k, 1, nth(sequences, k), limits));
    }
    i = j;
  }
  return out;
}

function capped(text: string, first: number, count: number, ansi: number, limits: Limits): Emission {
  if (text.length > limits.lineCap) {
    const cut = `${truncateUtf16(text, limits.lineCap)} …[+${text.length - limits.lineCap} chars]`;
    return { text: cut, first, count, lineCapped: true, ansiSequences: ansi };
  }
  return { text, first, count, lineCapped: false, ansiSequences: ansi };
}

/** The notes on escapes, folds and capped lines, in upstream's order. */
export function commonNotes(ansi: number, folds: number, cappedLines: number, limits: Limits): string[] {
  const notes: string[] = [];
  if (ansi > 0) notes.push(`${ansi} ANSI escape ${plural(ansi, "sequence", "sequences")} stripped`);
  if (folds > 0) notes.push(`${folds} repeated-line ${plural(folds, "run", "runs")} collapsed`);
  if (cappedLines > 0) {
    notes.push(`${cappedLines} long ${plural(cappedLines, "line", "lines")} truncated to ${limits.lineCap} chars`);
  }
  return notes;
}

/**
 * Lines adjacent in the log, to be condensed together: numbered `first`, `first + 1`, … one
 * per text. Runs are ascending and disjoint, so the lines between two are the gap a marker names.
 */
export interface Run {
  first: number;
  texts: string[];
}

/** What the newest-first walk keeps. */
export interface NewestFirst {
  body: string;
  /** The numbers of the complete lines the body carries, in body order. */
  shown: number[];
  partialShown: boolean;
  notes: string[];
}

interface Item {
  run: number;
  emission: Emission;
}

/**
 * Condenses the runs (and the partial line, a run of its own after them) and keeps the newest
 * emissions that fit the budget. The newest complete line always fits (`validateLimits`), and
 * the partial line yields to it: that is what makes every read make progress.
 */
export function condenseNewestFirst(limits: Limits, runs: Run[], partial: Run | undefined): NewestFirst {
  const hasPartial = partial !== undefined;
  if (partial) runs.push(partial);
  const items = emissions(runs, limits);
  let keptFrom = keepNewest(items, runs, limits.textBudget);
  const completeItems = items.length - (hasPartial ? 1 : 0);
  const crowdedOut = hasPartial && completeItems > 0 && keptFrom >= completeItems;
  if (crowdedOut) {
    items.pop();
    runs.pop();
    keptFrom = keepNewest(items, runs, limits.textBudget);
  }
  const partialRun = hasPartial && !crowdedOut ? runs.length - 1 : undefined;
  const kept = assemble(items.slice(keptFrom), runs, partialRun, limits);
  if (crowdedOut) {
    kept.notes.push("a partial last line is being written; it did not fit the budget this time");
  }
  return kept;
}

function emissions(runs: Run[], limits: Limits): Item[] {
  const items: Item[] = [];
  runs.forEach((run, r) => {
    for (const emission of buildEmissions(run.texts, limits)) items.push({ run: r, emission });
  });
  return items;
}

function assemble(kept: Item[], runs: Run[], partialRun: number | undefined, limits: Limits): NewestFirst {
  const out: string[] = [];
  const shown: number[] = [];
  let partialShown = false;
  let ansi = 0;
  let folds = 0;
  let cappedLines = 0;
  kept.forEach((item, k) => {
    if (k > 0 && nth(kept, k - 1).run !== item.run) {
      const gap = gapBetween(runs, nth(kept, k - 1).run, item.run);
      if (gap > 0) out.push(marker(gap));
    }
    out.push(item.emission.text);
    if (item.run === partialRun) {
      partialShown = true;
    } else {
      const first = nth(runs, item.run).first + item.emission.first;
      for (let n = first; n < first + item.emission.count; n++) shown.push(n);
    }
    ansi += item.emission.ansiSequences;
    folds += item.emission.count > 1 ? 1 : 0;
    cappedLines += item.emission.lineCapped ? 1 : 0;
  });
  return { body: out.join("\n"), shown, partialShown, notes: commonNotes(ansi, folds, cappedLines, limits) };
}

function gapBetween(runs: Run[], older: number, newer: number): number {
  return nth(runs, newer).first - (nth(runs, older).first + nth(runs, older).texts.length);
}

/** Walks newest → oldest, charging each emission its length + 1 (and a marker where it is not
 *  adjacent to the newer one kept); stops at the first that does not fit. */
function keepNewest(items: Item[], runs: Run[], budget: number): number {
  let total = 0;
  let keptFrom = items.length;
  let lastRun: number | undefined;
  for (let idx = items.length - 1; idx >= 0; idx--) {
    const item = nth(items, idx);
    let cost = item.emission.text.length + 1;
    if (lastRun !== undefined && lastRun !== item.run) {
      const gap = gapBetween(runs, item.run, lastRun);
      if (gap > 0) cost += marker(gap).length + 1;
    }
    if (total + cost > budget) break;
    total += cost;
    keptFrom = idx;
    lastRun = item.run;
  }
  return keptFrom;
}

function marker(gap: number): string {
  return `… ${gap} ${plural(gap, "line", "lines")} already shown …`;
}
