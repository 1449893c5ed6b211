// A serialised state read back: every field checked, so that a corrupt or hand-edited state
// is a `StateError` naming the place, never a read that trusts a broken bookmark.

import type { Bookmark, BytePrint, ExactState } from "./types.js";
import type { Mark } from "./lineIndex.js";
import { nth } from "./nth.js";

/** A serialised state that is not one of this engine's: `where` is the path to the bad value. */
export class StateError extends Error {
  override name = "StateError";
  constructor(
    readonly where: string,
    why: string,
  ) {
    super(`${where}: ${why}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function offset(v: unknown, where: string): number {
  if (!Number.isSafeInteger(v) || (v as number) < 0) throw new StateError(where, `expected a byte offset, found ${JSON.stringify(v)}`);
  return v as number;
}

function int(v: unknown, where: string): number {
  if (!Number.isSafeInteger(v)) throw new StateError(where, `expected an integer, found ${JSON.stringify(v)}`);
  return v as number;
}

function field(o: Record<string, unknown>, key: string, where: string): unknown {
  if (!(key in o)) throw new StateError(`${where}.${key}`, "missing");
  return o[key];
}

function bytePrint(v: unknown, where: string): BytePrint {
  if (!isObject(v)) throw new StateError(where, "expected a fingerprint object");
  const hash = field(v, "hash", where);
  if (typeof hash !== "string" || !/^[0-9a-f]{16}$/.test(hash)) {
    throw new StateError(`${where}.hash`, "expected 16 lowercase hex digits");
  }
  return { offset: offset(field(v, "offset", where), `${where}.offset`), len: offset(field(v, "len", where), `${where}.len`), hash };
}

function pair(v: unknown, where: string): [number, number] {
  if (!Array.isArray(v) || v.length !== 2) throw new StateError(where, "expected [start, end]");
  const s = offset(v[0], `${where}[0]`);
  const e = offset(v[1], `${where}[1]`);
  if (!(s < e)) throw new StateError(where, `expected start < end, found [${s}, ${e}]`);
  return [s, e];
}

function ranges(v: unknown, where: string): [number, number][] {
  if (!Array.isArray(v)) throw new StateError(where, "expected an array of ranges");
  const out = v.map((r, i) => pair(r, `${where}[${i}]`));
  for (let i = 1; i < out.length; i++) {
    if (!(nth(out, i - 1)[1] < nth(out, i)[0])) throw new StateError(`${where}[${i}]`, "ranges must be sorted, disjoint and not touching");
  }
  return out;
}

function marks(v: unknown, where: string): Mark[] {
  if (!Array.isArray(v)) throw new StateError(where, "expected an array of marks");
  const out = v.map((m, i) => {
    const at = `${where}[${i}]`;
    if (!isObject(m)) throw new StateError(at, "expected a mark object");
    return {
      offset: offset(field(m, "offset", at), `${at}.offset`),
      lines: int(field(m, "lines", at), `${at}.lines`),
      newlines: int(field(m, "newlines", at), `${at}.newlines`),
    };
  });
  for (let i = 1; i < out.length; i++) {
    if (!(nth(out, i - 1).offset < nth(out, i).offset)) throw new StateError(`${where}[${i}]`, "marks must be in increasing offset");
  }
  return out;
}

function identity(v: unknown, where: string): Bookmark["identity"] {
  if (v === null || v === undefined) return null;
  if (!isObject(v)) throw new StateError(where, "expected null or {device, inode}");
  const decimal = (x: unknown, at: string) => {
    if (typeof x !== "string" || !/^(0|[1-9][0-9]*)$/.test(x)) throw new StateError(at, "expected a decimal string");
    return x;
  };
  return { device: decimal(field(v, "device", where), `${where}.device`), inode: decimal(field(v, "inode", where), `${where}.inode`) };
}

function bookmark(v: unknown, where: string): Bookmark {
  if (!isObject(v)) throw new StateError(where, "expected a bookmark object");
  const path = field(v, "path", where);
  if (typeof path !== "string") throw new StateError(`${where}.path`, "expected a string");
  const generation = offset(field(v, "generation", where), `${where}.generation`);
  if (generation < 1) throw new StateError(`${where}.generation`, "generations count from 1");
  const size = offset(field(v, "size", where), `${where}.size`);
  const settledEnd = offset(field(v, "settled_end", where), `${where}.settled_end`);
  if (settledEnd > size) throw new StateError(`${where}.settled_end`, `past the size (${settledEnd} > ${size})`);
  const settled = v.settled_print;
  const coverage = field(v, "coverage", where);
  if (!isObject(coverage)) throw new StateError(`${where}.coverage`, "expected {ranges}");
  const partial = v.partial_seen;
  const partialPrint = v.partial_print;
  const index = v.index;
  if (index !== undefined && index !== null && !isObject(index)) throw new StateError(`${where}.index`, "expected {marks}");
  return {
    path,
    generation,
    identity: identity(v.identity, `${where}.identity`),
    size,
    settled_end: settledEnd,
    head: bytePrint(field(v, "head", where), `${where}.head`),
    settled_print: settled === undefined || settled === null ? null : bytePrint(settled, `${where}.settled_print`),
    coverage: { ranges: ranges(field(coverage, "ranges", `${where}.coverage`), `${where}.coverage.ranges`) },
    partial_seen: partial === undefined || partial === null ? null : pair(partial, `${where}.partial_seen`),
    partial_print:
      partialPrint === undefined || partialPrint === null ? null : bytePrint(partialPrint, `${where}.partial_print`),
    index: { marks: isObject(index) ? marks(index.marks ?? [], `${where}.index.marks`) : [] },
  };
}

/** Reads a state back from its JSON value (`JSON.parse` of a saved one), checked field by field;
 *  the result is a fresh value with the fields in the engine's order. */
export function parseState(value: unknown): ExactState {
  if (!isObject(value)) throw new StateError("state", "expected an object {bookmarks}");
  const list = field(value, "bookmarks", "state");
  if (!Array.isArray(list)) throw new StateError("state.bookmarks", "expected an array of [id, bookmark]");
  const seen = new Set<string>();
  const bookmarks = list.map((entry, i): [string, Bookmark] => {
    const at = `state.bookmarks[${i}]`;
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== "string") {
      throw new StateError(at, "expected [id, bookmark]");
    }
    if (seen.has(entry[0])) throw new StateError(at, `the id ${JSON.stringify(entry[0])} has a bookmark already`);
    seen.add(entry[0]);
    return [entry[0], bookmark(entry[1], `${at}[1]`)];
  });
  return { bookmarks };
}

/** The state as a snapshot: without the line index, a cache that changes no reply, so that
 *  equal states give equal snapshots (a model checker tells states apart by them). */
export function snapshotState(state: ExactState): ExactState {
  return {
    bookmarks: state.bookmarks.map(([id, b]) => {
      const { index: _index, ...rest } = b;
      void _index;
      return [id, rest];
    }),
  };
}
