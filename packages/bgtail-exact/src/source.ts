// Where the engine reads a log from: a file read by position (never the whole log), or bytes
// in memory. The engine asks a source for its size and identity once a read, then for spans.

import * as fs from "node:fs";

/** Which file sat at the path: device and inode, as decimal strings (they can pass 2^53). */
export interface LogIdentity {
  device: string;
  inode: string;
}

/** The log as a read finds it. */
export interface LogStat {
  size: number;
  identity?: LogIdentity;
}

/** The log could not be read: there is none at the path, it cannot be read, or it held fewer
 *  bytes than a read measured (it shrank while it was read). */
export class SourceError extends Error {
  override name = "SourceError";
  constructor(
    /** `"not_found"`: nothing at the path; `"shrank"`: fewer bytes than the read measured
     *  ({@link readMeasuredSpan}); `"unreadable"`: anything else. */
    readonly kind: "not_found" | "unreadable" | "shrank",
    message: string,
  ) {
    super(message);
  }
}

/** A log to read. `readAt` fills `buf` from `offset` and returns how many bytes it read (0 at
 *  the end); it may return fewer than asked, and the engine asks again. */
export interface LogSource {
  stat(): LogStat;
  readAt(offset: number, buf: Uint8Array): number;
}

/** `len` bytes at `offset`, fewer at the log's end; counts what it read into `counter`. */
export function readSpan(source: LogSource, offset: number, len: number, counter: { bytesRead: number }): Uint8Array {
  if (!Number.isSafeInteger(len) || len < 0) throw new SourceError("unreadable", "span too large");
  const buf = new Uint8Array(len);
  let filled = 0;
  while (filled < len) {
    const n = source.readAt(offset + filled, buf.subarray(filled));
    if (n === 0) break;
    filled += n;
  }
  counter.bytesRead += filled;
  return filled === len ? buf : buf.subarray(0, filled);
}

/** The error of a log that held fewer bytes than a read measured. */
export function shrankWhileRead(): SourceError {
  return new SourceError("shrank", "the log shrank while it was read");
}

/** The `len` bytes at `offset` of a log measured to hold them; throws {@link shrankWhileRead}'s
 *  error when it holds fewer (it shrank since it was measured). */
export function readMeasuredSpan(source: LogSource, offset: number, len: number, counter: { bytesRead: number }): Uint8Array {
  const bytes = readSpan(source, offset, len, counter);
  if (bytes.length !== len) throw shrankWhileRead();
  return bytes;
}

function classify(e: unknown, path: string): SourceError {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT") return new SourceError("not_found", `${path}: not found`);
  return new SourceError("unreadable", `${path}: ${(e as Error)?.message ?? String(e)}`);
}

/**
 * A log on disk, open for one read: `stat` and every span come from the same open file, so a
 * file renamed over the path mid-read does not mix two files. Close it when the read is done.
 */
export class FileSource implements LogSource {
  private constructor(
    readonly path: string,
    private fd: number | undefined,
  ) {}

  /** Opens the log at `path`; a missing or unreadable one gives a source whose every call
   *  throws that `SourceError`, so that the engine answers with upstream's error reply. */
  static open(path: string): FileSource | UnavailableSource {
    let fd: number | undefined;
    try {
      fd = fs.openSync(path, "r");
      if (fs.fstatSync(fd).isDirectory()) {
        fs.closeSync(fd);
        return new UnavailableSource(new SourceError("unreadable", `${path}: is a directory`));
      }
      return new FileSource(path, fd);
    } catch (e) {
      if (fd !== undefined) fs.closeSync(fd);
      return new UnavailableSource(classify(e, path));
    }
  }

  private handle(): number {
    if (this.fd === undefined) throw new SourceError("unreadable", `${this.path}: closed`);
    return this.fd;
  }

  stat(): LogStat {
    try {
      const s = fs.fstatSync(this.handle(), { bigint: true });
      return { size: Number(s.size), identity: { device: s.dev.toString(), inode: s.ino.toString() } };
    } catch (e) {
      throw e instanceof SourceError ? e : classify(e, this.path);
    }
  }

  readAt(offset: number, buf: Uint8Array): number {
    if (buf.length === 0) return 0;
    for (;;) {
      try {
        return fs.readSync(this.handle(), buf, 0, buf.length, offset);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "EINTR" || (e as NodeJS.ErrnoException).code === "EAGAIN") continue;
        throw e instanceof SourceError ? e : classify(e, this.path);
      }
    }
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

/** A log that cannot be read: every call throws the error it was made with. */
export class UnavailableSource implements LogSource {
  constructor(readonly error: SourceError) {}
  stat(): LogStat {
    throw this.error;
  }
  readAt(): number {
    throw this.error;
  }
  close(): void {}
}

/** A log held in memory, with no identity (the engine then tells generations by bytes). */
export class MemorySource implements LogSource {
  constructor(public bytes: Uint8Array = new Uint8Array(0)) {}

  static of(text: string): MemorySource {
    return new MemorySource(new TextEncoder().encode(text));
  }

  stat(): LogStat {
    return { size: this.bytes.length };
  }

  readAt(offset: number, buf: Uint8Array): number {
    if (offset >= this.bytes.length) return 0;
    const part = this.bytes.subarray(offset, Math.min(this.bytes.length, offset + buf.length));
    buf.set(part);
    return part.length;
  }

  /** Appends bytes (or UTF-8 text) at the end, as a job writes. */
  append(more: Uint8Array | string): void {
    const add = typeof more === "string" ? new TextEncoder().encode(more) : more;
    const next = new Uint8Array(this.bytes.length + add.length);
    next.set(this.bytes);
    next.set(add, this.bytes.length);
    this.bytes = next;
  }
}
