// The values a read takes and gives: the request, the reply, the bookmarks.

import type { Ranges } from "./coverage.js";
import type { Mark } from "./lineIndex.js";
import type { LogIdentity } from "./source.js";

/** The job a read is for: its id (the bookmark's key) and the log path it resolves to now. */
export interface Job {
  id: string;
  path: string;
}

/**
 * One read, with the tool's parameters as the agent's JSON gave them. `lines` and `bytes` are
 * JavaScript numbers: a fraction is floored, `lines` below 1 reads 1, `Infinity` (or any
 * `lines` past what a view can hold) is the whole view; `NaN` and absent are the defaults.
 */
export interface Request {
  /** How many content lines the window holds (default 40). */
  lines?: number;
  /** The window verbatim, not condensed, and nothing recorded as shown. */
  raw?: boolean;
  /** The view: how many bytes at the end of the log are searched (default 2 MiB). */
  bytes?: number;
  /** Read the log although the job is still running. */
  peek?: boolean;
  /** Whether the job is still running (from the job's record, not from the agent). */
  running?: boolean;
  /** Seconds since the job started, for the running-job state line. */
  elapsedSecs?: number;
}

/** Why a read started over instead of continuing from the bookmark. */
export type ResetReason =
  | "path_changed"
  | "shrank"
  | "file_replaced"
  | "rewritten"
  | "regrown_past_cut"
  | "partial_rewritten";

/** What kind of read a reply is. */
export type ReadKind = "first" | "raw" | "delta" | "nothing_new" | "gated" | "error";

/** A content line a reply carries. */
export interface ShownLine {
  /** The bookmark's generation of the log the line belongs to. */
  generation: number;
  /** Byte offset where the line starts. */
  offset: number;
  /** One past its last byte (after the `\n`, or the log's end for a partial line). */
  end: number;
  /** Its 1-based position among the view's content lines; `null` when not counted. */
  viewLine: number | null;
  /** Whether it was still being written (shown, never recorded as covered). */
  partial: boolean;
}

/** The numbers behind a reply's text. */
export interface Counts {
  /** Content lines in the view; `null` when the view was not counted whole. */
  totalLines: number | null;
  /** Content lines appended since the last read. */
  newLines: number;
  /** Lines selected before the budget. */
  selected: number;
  /** Complete content lines the text carries. */
  shown: number;
  newShown: number;
  earlierShown: number;
  /** Selected lines the budget left out. */
  leftOut: number;
  /** Lines above the window never shown in this generation; `null` when not counted. */
  unseenAbove: number | null;
  /** Of those, the ones newer than a shown line: gaps the caller skipped. */
  skippedAbove: number;
  /** Coverage ranges forgotten because the bookmark was full. */
  forgottenRanges: number;
  partialShown: boolean;
}

/** What a read returns: the agent's text and the facts behind it. */
export interface Reply {
  /** Exactly what the agent sees. */
  text: string;
  /** Where in `text` the log's lines are, `[start, end)` in UTF-16 units; `[0, 0]` for none. */
  body: [number, number];
  /** Upstream's `isError`. */
  isError: boolean;
  kind: ReadKind;
  /** Set when the read started over. */
  reset: ResetReason | null;
  /** The content lines the text carries, in log order. */
  shown: ShownLine[];
  counts: Counts;
  /** Condenser and engine notes, as printed but without the parentheses. */
  notes: string[];
  /** Upstream's `details` object, keys in upstream's order. */
  details: Record<string, unknown>;
  /** How many bytes of the log this read read. */
  bytesRead: number;
}

/** A fingerprint: FNV-1a 64 (16 hex digits) of `len` bytes at `offset`. */
export interface BytePrint {
  offset: number;
  len: number;
  hash: string;
}

/** One id's bookmark: plain JSON. */
export interface Bookmark {
  /** The path the id resolved to at the last read. */
  path: string;
  /** Counts the generations this bookmark has seen, from 1. */
  generation: number;
  /** Which file sat at the path, when the source knows. */
  identity: LogIdentity | null;
  /** The log's size at the last read. */
  size: number;
  /** Lines starting at or after this offset were not complete at the last read. */
  settled_end: number;
  /** The log's first bytes, as this read saw them. */
  head: BytePrint;
  /** The `settledPrintBytes` just before `settled_end`, as this read saw them. */
  settled_print: BytePrint | null;
  /** The complete lines the caller was shown in this generation, as byte ranges. */
  coverage: { ranges: Ranges };
  /** The partial line the caller was last shown. Never coverage. */
  partial_seen: [number, number] | null;
  /** The end of the partial line the last read found, shown or not (its last
   *  `partialPrintBytes`): a change to them is a new generation. May be absent in a state saved
   *  before it was kept. */
  partial_print: BytePrint | null;
  /** Line numbers at known offsets: a cache that changes no reply; may be absent. */
  index?: { marks: Mark[] };
}

/** Every bookmark, least recently read first. */
export interface ExactState {
  bookmarks: [string, Bookmark][];
}
