// The view: the last bytes of a log, cut into content lines.
//
//   file:  0 ............ origin ................................. origin+buf.length (≤ size)
//   buf:                  0 ..... start .. textEnd [\r] \n end ... buf.length
//
// - `origin` is the file offset of `buf[0]`; a line's file offset is `origin + start`.
// - `start ≤ textEnd ≤ end ≤ buf.length`; `textEnd` excludes the `\n` and a `\r` right before
//   it (upstream splits on `\r?\n`). The last segment, with no `\n`, has `end === buf.length`
//   and `terminated` false.
// - Content lines are listed in file order; blank lines (empty after `trim()`) and wrapper
//   lines (starting with `__BGRUN_`) are not listed, but lie in the gaps between listed ones.
// - When upstream's line bound cut the buffer, nothing before `scanStart` is listed.

const NL = 0x0a;
const CR = 0x0d;
const WRAPPER_PREFIX = [0x5f, 0x5f, 0x42, 0x47, 0x52, 0x55, 0x4e, 0x5f]; // "__BGRUN_"
/** The exit marker the wrapper appends when the job ends. */
export const EXIT_MARKER = "__BGRUN_EXIT__=";

// Invalid sequences become U+FFFD as Rust's `from_utf8_lossy` makes them (both replace each
// maximal invalid subpart), and a leading byte-order mark stays text.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Decodes bytes as UTF-8, invalid sequences replaced by U+FFFD. */
export function decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** One content line's span in the view's buffer. */
export interface LineSpan {
  start: number;
  textEnd: number;
  end: number;
  terminated: boolean;
  /** How many `\n` bytes lie in `buf[scanStart, start)`: lines between two offsets are
   *  numbered without a second pass over the bytes. */
  nlBefore: number;
}

export class View {
  /**
   * @param origin file offset of `buf[0]`
   * @param size the log's size when it was measured (the read may have come back shorter)
   */
  constructor(
    readonly origin: number,
    readonly size: number,
    readonly buf: Uint8Array,
    readonly lines: LineSpan[],
    readonly scanStart: number,
    readonly lineBoundHit: boolean,
    /** The `\n` bytes in `buf[scanStart..]`. */
    readonly newlines: number,
  ) {}

  /** Cuts `buf` (read at `origin`) into lines, scanning at most the last `scanLinesMax`. */
  static scan(origin: number, size: number, buf: Uint8Array, scanLinesMax: number): View {
    return View.scanWithLead(origin, size, buf, 0, scanLinesMax);
  }

  /**
   * `scan` of a buffer whose first `lead` bytes lie before the view: the line bound cuts only
   * when some of the view lies before its `scanLinesMax`-th `\n`, as upstream's does.
   */
  static scanWithLead(
    origin: number,
    size: number,
    buf: Uint8Array,
    lead: number,
    scanLinesMax: number,
  ): View {
    const [scanStart, hit] = lineBound(buf, lead, scanLinesMax);
    const lines: LineSpan[] = [];
    let pos = scanStart;
    let nls = 0;
    for (let nl = buf.indexOf(NL, scanStart); nl !== -1; nl = buf.indexOf(NL, nl + 1)) {
      const textEnd = nl > pos && buf[nl - 1] === CR ? nl - 1 : nl;
      if (isContent(buf, pos, textEnd)) lines.push({ start: pos, textEnd, end: nl + 1, terminated: true, nlBefore: nls });
      nls++;
      pos = nl + 1;
    }
    if (pos < buf.length && isContent(buf, pos, buf.length)) {
      lines.push({ start: pos, textEnd: buf.length, end: buf.length, terminated: false, nlBefore: nls });
    }
    return new View(origin, size, buf, lines, scanStart, hit, nls);
  }

  /** The listed lines ended by a `\n`: every one but an unterminated last segment. */
  completeLines(): number {
    const last = this.lines[this.lines.length - 1];
    return last !== undefined && !last.terminated ? this.lines.length - 1 : this.lines.length;
  }

  /**
   * How many `\n` bytes lie in the buffer before `at` (a buffer index at or after `scanStart`),
   * given `next`, the first listed line starting at or after `at` (`lines.length` for none):
   * the count the scan recorded at the nearest listed line, corrected by the few newlines of
   * blank or wrapper lines in between.
   */
  newlinesBefore(at: number, next: number): number {
    const after = this.lines[next];
    if (after !== undefined) return after.nlBefore - this.newlinesIn(at, after.start);
    const last = this.lines[next - 1];
    if (last !== undefined) return last.nlBefore + this.newlinesIn(last.start, at);
    return this.newlinesIn(this.scanStart, at);
  }

  /** The `\n` bytes in `buf[from, to)`, counted. */
  private newlinesIn(from: number, to: number): number {
    let n = 0;
    for (let i = this.buf.indexOf(NL, from); i !== -1 && i < to; i = this.buf.indexOf(NL, i + 1)) n++;
    return n;
  }

  /** A line's text, decoded. */
  text(line: LineSpan): string {
    return decode(this.buf.subarray(line.start, line.textEnd));
  }

  /** A line's file offset. */
  offset(line: LineSpan): number {
    return this.origin + line.start;
  }

  /** One past a line's last byte, as a file offset. */
  endOffset(line: LineSpan): number {
    return this.origin + line.end;
  }

  /** The last segment of the buffer (split on `\n`) that is not blank. */
  lastNonblankSegment(): string | undefined {
    let end = this.buf.length;
    for (;;) {
      const nl = end === 0 ? -1 : this.buf.lastIndexOf(NL, end - 1);
      const start = nl + 1;
      const seg = decode(this.buf.subarray(start, end));
      if (seg.trim() !== "") return seg;
      if (start === 0) return undefined;
      end = start - 1;
    }
  }

  /** The exit marker, when it is the log's last non-blank line: the job has finished. */
  exitLine(): string | undefined {
    const seg = this.lastNonblankSegment();
    return seg !== undefined && seg.startsWith(EXIT_MARKER) ? seg : undefined;
  }
}

/**
 * The cap an exit marker records: the first ` truncated=` followed by digits, read as
 * `parseInt` reads it (a double: rounded past 2^53, infinite past ~1.8e308).
 */
export function capOf(exitLine: string): number | undefined {
  const LABEL = " truncated=";
  for (let at = exitLine.indexOf(LABEL); at !== -1; at = exitLine.indexOf(LABEL, at + 1)) {
    const digits = /^[0-9]*/.exec(exitLine.slice(at + LABEL.length))![0];
    if (digits !== "") return Number(digits);
  }
  return undefined;
}

/** Whether `buf[start..end)` (a line's text) is a content line: not blank, not the wrapper's. */
export function isContent(buf: Uint8Array, start: number, end: number): boolean {
  if (end - start >= WRAPPER_PREFIX.length) {
    let wrapper = true;
    for (let k = 0; k < WRAPPER_PREFIX.length; k++) {
      if (buf[start + k] !== WRAPPER_PREFIX[k]) {
        wrapper = false;
        break;
      }
    }
    if (wrapper) return false;
  }
  return !isBlank(buf, start, end);
}

/** The end of the text of a line that starts at `start` and ends with the `\n` at `nl`. */
export function lineTextEnd(buf: Uint8Array, start: number, nl: number): number {
  return nl > start && buf[nl - 1] === CR ? nl - 1 : nl;
}

/** Whether a line is empty after `trim()`. */
function isBlank(buf: Uint8Array, start: number, end: number): boolean {
  let ascii = true;
  for (let i = start; i < end; i++) {
    const b = buf[i]!; // i < end ≤ buf.length: a byte loop, so no call per byte
    if (b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0b || b === 0x0c) continue;
    if (b < 0x80) return false;
    ascii = false;
  }
  if (ascii) return true;
  return decode(buf.subarray(start, end)).trim() === "";
}

/** Where the line bound starts scanning: after the `max`-th `\n` from the end, when there is
 *  still content of the view (past the `lead` bytes) before it. */
function lineBound(buf: Uint8Array, lead: number, max: number): [number, boolean] {
  // `max` newlines take `max` bytes: a shorter buffer cannot reach the bound.
  if (buf.length < max) return [0, false];
  let seen = 0;
  for (let i = buf.length === 0 ? -1 : buf.lastIndexOf(NL); i !== -1; i = i === 0 ? -1 : buf.lastIndexOf(NL, i - 1)) {
    seen++;
    if (seen === max) return i > lead ? [i + 1, true] : [0, false];
  }
  return [0, false];
}
