// Where a read starts from: the bookmark's memory when the read continues its generation, or a
// fresh one (the start.rs module of the Rust engine).

import type { Ranges } from "./coverage.js";
import type { Bookmark, ResetReason } from "./types.js";

/** Where a read starts from: the bookmark's memory, or a fresh one. */
export interface Start {
  generation: number;
  coverage: Ranges;
  /** The bookmark's settled end when continuing a generation. */
  settledBefore: number | undefined;
  /** The bookmark's size when continuing: the bytes from `settledBefore` up to it held no `\n`. */
  sizeBefore: number | undefined;
  reset: ResetReason | undefined;
  /** The extent of the partial line the last condensed reply carried. */
  partialSeen: [number, number] | undefined;
}

/** Where a read starts, given the bookmark (if any) and the new generation's reason (if any).
 *  On a reset only the generation number survives: nothing else of the old bookmark is read. */
export function startAfter(prev: Bookmark | undefined, reset: ResetReason | undefined): Start {
  if (prev !== undefined && reset === undefined) {
    return {
      generation: prev.generation,
      coverage: prev.coverage.ranges,
      settledBefore: prev.settled_end,
      sizeBefore: prev.size,
      reset: undefined,
      partialSeen: prev.partial_seen ?? undefined,
    };
  }
  return {
    generation: prev === undefined ? 1 : prev.generation + 1,
    coverage: [],
    settledBefore: undefined,
    sizeBefore: undefined,
    reset: prev === undefined ? undefined : reset,
    partialSeen: undefined,
  };
}
