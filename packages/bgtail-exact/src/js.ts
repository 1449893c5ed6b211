// The text helpers the exact engine's replies are written with.
//
// JavaScript's own string semantics (UTF-16 lengths, `trim()`, `Number#toString`,
// `Math.round`) are upstream's, so they are used as they are. Three places differ from them on
// purpose, to print what the Rust reference prints: a cut surrogate pair becomes U+FFFD (the
// Rust engine holds no lone surrogate), an integer past 2^53 prints its exact digits, and
// `{:.1}` rounds half to even.

/** `n === 1 ? one : many`. */
export function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** Upstream's `formatBytes`: `900 bytes`, `1.5 KiB`, `2.6 MiB`. */
export function formatBytes(n: number): string {
  const KIB = 1024;
  const MIB = 1024 * 1024;
  const scaled = (unit: number) => String(Math.round((n / unit) * 10) / 10);
  if (n >= MIB) return `${scaled(MIB)} MiB`;
  if (n >= KIB) return `${scaled(KIB)} KiB`;
  return `${String(n)} bytes`;
}

/** An integer with en-US digit grouping (`500,000`), independent of the runtime's locale data. */
export function groupThousands(n: number): string {
  const digits = exactInteger(n);
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
    out += digits[i];
  }
  return out;
}

/** The exact decimal digits of a non-negative integer, past 2^53 too (Rust prints a `u64` so). */
export function exactInteger(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : BigInt(n).toString();
}

/**
 * `s.slice(0, units)`, except that a surrogate pair the cut splits becomes U+FFFD: the Rust
 * reference holds no lone surrogate, and U+FFFD is what node writes for one in UTF-8 anyway.
 */
export function truncateUtf16(s: string, units: number): string {
  if (s.length <= units) return s;
  const code = s.charCodeAt(units - 1);
  if (units > 0 && code >= 0xd800 && code <= 0xdbff) {
    return s.slice(0, units - 1) + "\uFFFD";
  }
  return s.slice(0, units);
}

/** Whether `s` holds a character in U+0000–U+001F or U+007F–U+009F. */
export function hasControlChar(s: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f-\u009f]/.test(s);
}

/**
 * `x` with one digit after the point, as Rust's `{:.1}` writes it: the exact binary value
 * rounded half to even (`0.25` → `0.2`), where `toFixed` rounds half up.
 */
export function fixed1(x: number): string {
  if (x >= 2 ** 53) return `${exactInteger(x)}.0`;
  const exact = x.toFixed(100);
  const dot = exact.indexOf(".");
  const whole = exact.slice(0, dot);
  const tenths = exact.charCodeAt(dot + 1) - 48;
  const rest = exact.slice(dot + 2);
  const half = rest[0] === "5" && /^50*$/.test(rest);
  const above = rest > "5" && !half;
  const up = above || (half && tenths % 2 === 1);
  if (!up) return `${whole}.${tenths}`;
  if (tenths < 9) return `${whole}.${tenths + 1}`;
  return `${(BigInt(whole) + 1n).toString()}.0`;
}
