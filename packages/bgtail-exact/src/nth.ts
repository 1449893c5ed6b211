// Indexing where the index is in range by the code around it (a loop's bound, a binary
// search's interval, a line number the scan produced). Under `noUncheckedIndexedAccess` an
// index reads as possibly `undefined`; `nth` says the index is the engine's own and fails loudly
// if that is ever untrue, instead of carrying `undefined` into a reply.

/** `items[i]`, which the caller keeps in range: out of range is a bug in the engine. */
export function nth<T>(items: ArrayLike<T>, i: number): T {
  const item = items[i];
  if (item === undefined) throw new RangeError(`index ${i} is outside 0..${items.length}`);
  return item;
}
