// Every size limit of the exact engine, in one value: upstream's numbers by default.

/** The limits the engine reads with. Text lengths are UTF-16 code units, as upstream counts. */
export interface Limits {
  /** The condensed body's budget: Σ(emission length + 1) may not exceed it. */
  textBudget: number;
  /** The per-line cap after ANSI stripping. */
  lineCap: number;
  /** Runs of at least this many equal lines fold into one emission. */
  foldThreshold: number;
  /** `lines` when a request gives none. */
  defaultLines: number;
  /** The view (`bytes`) when a request gives none. */
  viewDefault: number;
  /** The largest view a request may ask for. */
  viewMax: number;
  /** How many lines of a view are scanned at most (upstream's line bound). */
  scanLinesMax: number;
  /** How many job ids keep a bookmark; the least recently read is forgotten past it. */
  bookmarkCapacity: number;
  /** How many disjoint ranges a bookmark's coverage keeps before forgetting the oldest. */
  coverageRangesMax: number;
  /** Bytes at the head of the log fingerprinted to notice a rewrite. */
  headProbeBytes: number;
  /** Bytes before where the last read's complete lines ended fingerprinted, to notice a log
   *  cut and regrown behind an unchanged head, or its newest lines rewritten in place. */
  settledPrintBytes: number;
  /** Bytes at the end of the partial line a read found fingerprinted, to notice a progress
   *  line redrawn in place. */
  partialPrintBytes: number;
  /** The tail is read backwards in pieces of this many bytes at first, doubling. Tuning only. */
  tailChunk: number;
  /** The line index keeps a line number about every this many bytes. Tuning only. */
  markSpacing: number;
  /** The largest piece read at once: the pieces of the tail, of a count and of the rest of a
   *  line double up to this many bytes. Tuning only. */
  pieceMax: number;
  /** A partial line the view or the settled end cuts is searched back for its start in pieces
   *  of this many bytes. Tuning only. */
  lineSearchPiece: number;
  /** Whether every read counts the whole view (by default only when a reply prints its count). */
  countWholeView: boolean;
  /** Views of at most this many bytes are counted whole on every read. */
  countViewsUpTo: number;
}

/** Upstream's log ceiling (`DEFAULT_MAX_LOG_BYTES`) and the wrapper's overhead above it. */
export const DEFAULT_MAX_LOG_BYTES = 67_108_864;
export const WRAPPER_OVERHEAD_BYTES = 4_096;

/** Upstream's limits, and the exact engine's tuning. */
export function defaultLimits(): Limits {
  return {
    textBudget: 8_000,
    lineCap: 2_000,
    foldThreshold: 3,
    defaultLines: 40,
    viewDefault: 2_097_152,
    viewMax: DEFAULT_MAX_LOG_BYTES + WRAPPER_OVERHEAD_BYTES,
    scanLinesMax: 500_000,
    bookmarkCapacity: 1_000,
    coverageRangesMax: 64,
    headProbeBytes: 4_096,
    settledPrintBytes: 64,
    partialPrintBytes: 64,
    tailChunk: 16_384,
    markSpacing: 16_384,
    pieceMax: 1 << 20,
    lineSearchPiece: 64 * 1024,
    countWholeView: false,
    countViewsUpTo: 128 * 1024,
  };
}

/** A relation between limits that the engine's guarantees rest on, broken. */
export class LimitsError extends Error {
  override name = "LimitsError";
}

const digits = (n: number) => String(n).length;

/** The longest emission the engine can print: a line cut at the cap, its `…[+N chars]`, a fold. */
export function longestEmission(limits: Limits): number {
  const capSuffix = " …[+".length + digits(limits.viewMax) + " chars]".length;
  const foldSuffix = "  [x".length + digits(limits.scanLinesMax) + "]".length;
  return limits.lineCap + capSuffix + foldSuffix;
}

/** Checks the limits: the budget holds the longest emission, counts are positive integers. */
export function validateLimits(limits: Limits): void {
  for (const [name, value] of Object.entries(limits)) {
    if (name === "countWholeView") {
      if (typeof value !== "boolean") throw new LimitsError(`${name} must be a boolean`);
    } else if (!Number.isSafeInteger(value) || (value as number) < 0) {
      throw new LimitsError(`${name} must be a non-negative integer (it is ${String(value)})`);
    }
  }
  const longest = longestEmission(limits);
  if (limits.textBudget < longest + 1) {
    throw new LimitsError(
      `textBudget ${limits.textBudget} cannot hold one capped line (${longest} units + newline); raise it or lower lineCap`,
    );
  }
  const positive = [
    "defaultLines",
    "scanLinesMax",
    "bookmarkCapacity",
    "coverageRangesMax",
    "tailChunk",
    "markSpacing",
    "pieceMax",
    "lineSearchPiece",
    "viewDefault",
    "headProbeBytes",
    "settledPrintBytes",
    "partialPrintBytes",
  ] as const;
  for (const name of positive) {
    if (limits[name] === 0) throw new LimitsError(`${name} must be positive`);
  }
  if (limits.foldThreshold < 2) {
    throw new LimitsError(`foldThreshold must be at least 2 (it is ${limits.foldThreshold})`);
  }
  if (limits.viewMax < limits.viewDefault) {
    throw new LimitsError(
      `viewDefault ${limits.viewDefault} must be at most viewMax ${limits.viewMax}`,
    );
  }
}

/**
 * The bgtail model checker's tiny limits (`ModelConfig::tiny_limits` in the bgtail-model
 * crate): a 40-unit budget and an 8-unit line cap, so that a handful of short lines reaches the
 * budget, the cap and coverage overflow; a tiny tail chunk and mark spacing, so that reads take
 * the line index's path; no view counted whole by size.
 */
export function modelLimits(): Limits {
  return {
    ...defaultLimits(),
    textBudget: 40,
    lineCap: 8,
    coverageRangesMax: 1,
    viewDefault: 4096,
    viewMax: 4096,
    scanLinesMax: 64,
    tailChunk: 4,
    markSpacing: 8,
    pieceMax: 8,
    lineSearchPiece: 2,
    countViewsUpTo: 0,
    headProbeBytes: 3,
    settledPrintBytes: 3,
    partialPrintBytes: 2,
  };
}
