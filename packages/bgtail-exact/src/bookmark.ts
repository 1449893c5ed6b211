// What the engine remembers of a job between reads: the fingerprints a bookmark keeps, and
// every job's bookmark (the bookmark.rs module of the Rust engine).

import type { Bookmark, BytePrint, ExactState } from "./types.js";

/** FNV-1a, 64 bits, as 16 hex digits: kept in two 32-bit halves, and the low half's product
 *  in two 16-bit limbs, so that every step is integer arithmetic (no BigInt, no division). */
export function fnv1a(bytes: Uint8Array): string {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]!) >>> 0; // i < bytes.length: a byte loop, so no call per byte
    // h × (2^40 + 0x1b3) mod 2^64. The low half times 0x1b3, limb by limb: `low` < 2^25 and
    // `high` < 2^26, so the carry into the high half is `high >>> 16`. The shift by 40 moves
    // the low half's bits up by 8 within the high half.
    const low = (lo & 0xffff) * 0x1b3;
    const high = (lo >>> 16) * 0x1b3 + (low >>> 16);
    hi = (Math.imul(hi, 0x1b3) + (high >>> 16) + (lo << 8)) >>> 0;
    lo = (((high & 0xffff) << 16) | (low & 0xffff)) >>> 0;
  }
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
}

export function print(offset: number, bytes: Uint8Array): BytePrint {
  return { offset, len: bytes.length, hash: fnv1a(bytes) };
}

/** Whether `bytes`, read at `p.offset`, start with the fingerprinted ones. */
export function printMatches(p: BytePrint, bytes: Uint8Array): boolean {
  return bytes.length >= p.len && fnv1a(bytes.subarray(0, p.len)) === p.hash;
}

/** An empty state: no bookmarks. */
export function emptyState(): ExactState {
  return { bookmarks: [] };
}

export function bookmarkOf(state: ExactState, id: string): Bookmark | undefined {
  return state.bookmarks.find(([k]) => k === id)?.[1];
}

/** Puts the bookmark last (most recently read), forgetting the oldest past `capacity`. */
export function putBookmark(state: ExactState, id: string, bookmark: Bookmark, capacity: number): void {
  const i = state.bookmarks.findIndex(([k]) => k === id);
  if (i !== -1) state.bookmarks.splice(i, 1);
  state.bookmarks.push([id, bookmark]);
  const excess = state.bookmarks.length - capacity;
  if (excess > 0) state.bookmarks.splice(0, excess);
}
