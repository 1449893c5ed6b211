// The generation check: whether the log a read finds is still the generation its bookmark saw,
// and, when it is not, why (the generation.rs module of the Rust engine).

import { printMatches } from "./bookmark.js";
import { readMeasuredSpan, type LogSource, type LogStat } from "./source.js";
import type { Bookmark, BytePrint, ResetReason } from "./types.js";

/** Whether the log is another generation than the bookmark's, and why. */
export function generationChange(
  prev: Bookmark,
  path: string,
  stat: LogStat,
  head: Uint8Array,
  headPrint: BytePrint,
  log: LogSource,
  counter: { bytesRead: number },
): ResetReason | undefined {
  if (prev.path !== path) return "path_changed";
  const [a, b] = [prev.identity, stat.identity];
  if (a && b && (a.device !== b.device || a.inode !== b.inode)) return "file_replaced";
  if (stat.size < prev.size) return "shrank";
  // The log is at least as long as the bookmark saw it, and its head was read whole, so
  // `head` holds all of the prefix the bookmark hashed. The head this read fingerprinted is most often as long as the bookmark's: its hash is
  // then the one to compare, and the bytes are not hashed twice.
  const sameHead = prev.head.len === headPrint.len ? prev.head.hash === headPrint.hash : printMatches(prev.head, head);
  if (!sameHead) return "rewritten";
  const p = prev.settled_print;
  if (p && !printMatches(p, readMeasuredSpan(log, p.offset, p.len, counter))) return "regrown_past_cut";
  // Last: the partial line a reply showed, rewritten in place behind an unchanged head.
  const q = prev.partial_print;
  if (q && !printMatches(q, readMeasuredSpan(log, q.offset, q.len, counter))) return "partial_rewritten";
  return undefined;
}
