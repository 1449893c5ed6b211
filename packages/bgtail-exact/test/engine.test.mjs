// The package's own unit tests (`npm test`); bgtail's differential harness proves the rest
// equal to the Rust engine read by read (`bgtail compare`, docs/differential.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, appendFileSync, rmSync, renameSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ExactEngine, FileSource, MemorySource, emptyState, parseState, snapshotState, StateError,
  RejectedError, LimitsError, defaultLimits,
} from "../dist/index.js";
import { exactLines } from "../dist/engine.js";
import { fnv1a } from "../dist/bookmark.js";
import { fixed1 } from "../dist/js.js";
import { Server } from "../dist/serve.js";

const job = { id: "build-1-1", path: "/jobs/build-1-1.log" };

test("fnv1a is the 64-bit FNV-1a the Rust engine fingerprints with", () => {
  // The empty input hashes to the offset basis, 14695981039346656037.
  assert.equal(fnv1a(new Uint8Array()), BigInt("14695981039346656037").toString(16));
  // "a\nb\n", as `bgtail serve --engine exact` fingerprints it (8713734661827109198).
  assert.equal(fnv1a(new TextEncoder().encode("a\nb\n")), BigInt("8713734661827109198").toString(16));
});

test("fnv1a's 32-bit limbs equal FNV-1a in 64-bit BigInt arithmetic on every byte value", () => {
  const reference = (bytes) => {
    let h = 14695981039346656037n;
    for (const b of bytes) h = ((h ^ BigInt(b)) * 1099511628211n) & 0xffffffffffffffffn;
    return h.toString(16).padStart(16, "0");
  };
  // Every byte value, and lengths where the carries of the low half's product reach the high half.
  const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 167 + (i >> 8)) & 0xff);
  for (const len of [1, 2, 3, 7, 64, 255, 256, 1000, 4096]) {
    assert.equal(fnv1a(bytes.subarray(0, len)), reference(bytes.subarray(0, len)), `length ${len}`);
  }
});

test("{:.1} rounds the exact value half to even, as Rust writes it", () => {
  assert.equal(fixed1(0.25), "0.2");
  assert.equal(fixed1(0.35), "0.3"); // 0.35 is 0.34999… in binary
  assert.equal(fixed1(0.75), "0.8");
  assert.equal(fixed1(9.96), "10.0");
  assert.equal(fixed1(0), "0.0");
});

test("lines follow the contract: floor, at least 1, the default for NaN, the whole view past 2^64", () => {
  const l = defaultLimits();
  assert.equal(exactLines(undefined, l), 40);
  assert.equal(exactLines(NaN, l), 40);
  assert.equal(exactLines(0, l), 1);
  assert.equal(exactLines(2.9, l), 2);
  assert.equal(exactLines(-Infinity, l), 1);
  assert.equal(exactLines(1e30, l), Infinity);
});

test("a delta read shows only what is new, and nothing twice", () => {
  const engine = new ExactEngine();
  const state = emptyState();
  const log = MemorySource.of("line-1\nline-2\nline-3\n");
  const first = engine.read(state, job, log, { lines: 2 });
  assert.equal(first.text, "first read: 2 lines — log at 3 lines\nline-2\nline-3");
  assert.deepEqual(first.shown.map((s) => [s.offset, s.end]), [[7, 14], [14, 21]]);
  log.append("line-4\n");
  const delta = engine.read(state, job, log, { lines: 2 });
  assert.equal(delta.text, "+1 new line — log at 4 lines\nline-4");
  const again = engine.read(state, job, log, { lines: 2 });
  assert.equal(again.kind, "nothing_new");
  assert.match(again.text, /^\(no new lines — log at 4 lines; 1 earlier line never shown — lines: 4 reaches the newest\)$/);
  assert.deepEqual(Object.keys(delta.details), [
    "id", "linesShown", "logPath", "notFound", "condensed", "newLines", "earlierLines",
    "totalLines", "leftOut", "unseenAbove", "skippedAbove", "windowBytes",
  ]);
});

test("a log cut shorter is a new generation, said in the text", () => {
  const engine = new ExactEngine();
  const state = emptyState();
  const log = MemorySource.of("a\nb\n");
  engine.read(state, job, log, {});
  log.bytes = new TextEncoder().encode("c\n");
  const reply = engine.read(state, job, log, {});
  assert.equal(reply.reset, "shrank");
  assert.match(reply.text, /^the log shrank since the last read, so the bookmark starts over: 1 line/);
});

test("a file that vanishes is upstream's error reply, and the bookmark stays", () => {
  const dir = mkdtempSync(join(tmpdir(), "bgtail-exact-"));
  try {
    const path = join(dir, "j.log");
    writeFileSync(path, "one\n");
    const engine = new ExactEngine();
    const state = emptyState();
    engine.readFile(state, { id: "j", path }, {});
    const before = JSON.stringify(state);
    rmSync(path);
    const gone = engine.readFile(state, { id: "j", path }, {});
    assert.equal(gone.isError, true);
    assert.match(gone.text, /^No log found for job j at /);
    assert.equal(JSON.stringify(state), before);
    // Written again with other bytes: a new generation, whether the inode is new or reused.
    writeFileSync(path, "two\n");
    appendFileSync(path, "three\n");
    const back = engine.readFile(state, { id: "j", path }, {});
    assert.ok(back.reset === "file_replaced" || back.reset === "rewritten", back.text);
    assert.match(back.text, /so the bookmark starts over: 2 lines — log at 2 lines\ntwo\nthree$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Runs `body(dir)` in a fresh temporary folder, removed afterwards. */
function inTempDir(body) {
  const dir = mkdtempSync(join(tmpdir(), "bgtail-exact-"));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A file source whose log is cut to `one\n` right after its size is taken: the race of a
 *  log truncated between the size and the read. */
function shrinksAfterStat(path) {
  const file = FileSource.open(path);
  return {
    stat() {
      const s = file.stat();
      truncateSync(path, 4);
      return s;
    },
    readAt: (offset, buf) => file.readAt(offset, buf),
    close: () => file.close(),
  };
}

// The next four tests pin the Rust engine's replies to the same races (impl/tests/bad_input.rs).
test("a log that shrinks between its size and its read is read again as it now is", () => {
  inTempDir((dir) => {
    const path = join(dir, "shrink.log");
    writeFileSync(path, "one\ntwo\nthree\n");
    const engine = new ExactEngine();
    const state = emptyState();
    const j = { id: "job-1-1", path };
    const source = shrinksAfterStat(path);
    const r = engine.read(state, j, source, { lines: 5 });
    source.close();
    assert.equal(r.text, "first read: 1 line — log at 1 line\none");
    // The answering read's own bytes: the head, then the line.
    assert.equal(r.bytesRead, 8);
    // The bookmark is of the log as it now is: the next read continues it.
    const again = engine.readFile(state, j, { lines: 5 });
    assert.equal(again.reset, null);
    assert.equal(again.text, "(no new lines — log at 1 line)");
  });
});

test("a log that shrinks during every read is an error that keeps the bookmark", () => {
  const engine = new ExactEngine();
  const state = emptyState();
  engine.read(state, job, MemorySource.of("one\n"), { lines: 5 });
  const before = snapshotState(state);
  const held = new TextEncoder().encode("one\ntwo\n");
  const claimsMore = {
    stat: () => ({ size: held.length + 10 }),
    readAt(offset, buf) {
      const rest = held.subarray(Math.min(offset, held.length));
      const n = Math.min(rest.length, buf.length);
      buf.set(rest.subarray(0, n));
      return n;
    },
  };
  const r = engine.read(state, job, claimsMore, { lines: 5 });
  assert.equal(r.isError, true);
  assert.equal(r.text, `Log for job ${job.id} at ${job.path} exists but could not be read (file may be too large or unreadable)`);
  assert.deepEqual(snapshotState(state), before);
});

test("a log that shrinks while its tail is read in pieces keeps what it still holds", () => {
  inTempDir((dir) => {
    const path = join(dir, "shrink.log");
    writeFileSync(path, "one\ntwo\nthree\n");
    // Pieces of 4 bytes: the first one asked for, bytes 10..14, is past the file's new end.
    const engine = new ExactEngine({ ...defaultLimits(), tailChunk: 4 });
    const source = shrinksAfterStat(path);
    const r = engine.read(emptyState(), { id: "job-1-1", path }, source, { lines: 5 });
    source.close();
    assert.equal(r.text, "first read: 1 line — log at 1 line\none");
    assert.equal(r.counts.totalLines, 1);
  });
});

test("a log deleted after it was opened is still read whole; one renamed over it is a new generation", () => {
  inTempDir((dir) => {
    const path = join(dir, "rot.log");
    writeFileSync(path, "a\nb\n");
    const engine = new ExactEngine();
    const state = emptyState();
    const j = { id: "job-1-1", path };
    const open = FileSource.open(path);
    rmSync(path);
    assert.equal(engine.read(state, j, open, { lines: 5 }).text, "first read: 2 lines — log at 2 lines\na\nb");
    open.close();
    writeFileSync(path, "a\nb\n");
    engine.readFile(state, j, { lines: 5 });
    writeFileSync(join(dir, "rot.log.new"), "a\nb\nc\n");
    renameSync(join(dir, "rot.log.new"), path);
    const r = engine.readFile(state, j, { lines: 5 });
    assert.equal(r.reset, "file_replaced");
    assert.equal(r.shown.length, 3);
  });
});

test("ids upstream refuses are refused, before the log is touched", () => {
  const engine = new ExactEngine();
  assert.throws(() => engine.read(emptyState(), { id: "", path: "x" }, new MemorySource()), RejectedError);
  assert.throws(() => engine.read(emptyState(), { id: "a/b", path: "x" }, new MemorySource()), /invalid job id "a\/b"/);
});

test("limits the guarantees cannot rest on are refused", () => {
  assert.throws(() => new ExactEngine({ textBudget: 100 }), LimitsError);
  assert.throws(() => new ExactEngine({ foldThreshold: 1 }), /foldThreshold must be at least 2/);
});

test("a state survives JSON, and a corrupt one names the place", () => {
  const engine = new ExactEngine();
  const state = emptyState();
  const log = MemorySource.of("a\nb\n");
  engine.read(state, job, log, {});
  const back = parseState(JSON.parse(JSON.stringify(snapshotState(state))));
  log.append("c\n");
  assert.equal(engine.read(back, job, log, {}).text, "+1 new line — log at 3 lines\nc");
  const bad = JSON.parse(JSON.stringify(state));
  bad.bookmarks[0][1].coverage.ranges = [[4, 2]];
  assert.throws(() => parseState(bad), (e) => e instanceof StateError && e.where === "state.bookmarks[0][1].coverage.ranges[0]");
  assert.throws(() => parseState({ bookmarks: [["x", { path: 1 }]] }), /state\.bookmarks\[0\]\[1\]\.path/);
});

test("the protocol server answers bad requests with named errors, not throws", () => {
  const server = new Server();
  assert.equal(server.answerLine("not json", 3).code, "malformed");
  assert.match(server.answerLine('{"type":"read","msg_id":4,"job_id":5}', 4).text, /request line 4: `job_id` must be a string/);
  assert.equal(server.answerLine('{"type":"restore","msg_id":5,"state":{"bookmarks":7}}', 5).code, "malformed");
  const refused = server.answerLine('{"type":"read","msg_id":6,"job_id":"a/b","log_path":"/x"}', 6);
  assert.deepEqual([refused.code, refused.in_reply_to], ["rejected", 6]);
});

test("a shown partial line rewritten in place is a new generation, and shown", () => {
  // 60 lines of 82 bytes, longer than the head probe: the rewrite is behind an unchanged head.
  const lines = Array.from({ length: 60 }, (_, i) => `${String(i + 1).padStart(4, "0")} ${"x".repeat(76)}\n`).join("");
  const engine = new ExactEngine();
  const state = emptyState();
  const job = { id: "build-1-1", path: "/jobs/build.log" };
  const running = { lines: 5, running: true, peek: true };
  const first = engine.read(state, job, MemorySource.of(`${lines}progress 10%`), running);
  assert.match(first.text, /progress 10%\n\n\(the last line is still being written/);
  const log = MemorySource.of(`${lines}progress 20%`);
  const reply = engine.read(state, job, log, running);
  assert.equal(reply.reset, "partial_rewritten");
  assert.ok(reply.text.startsWith("the unfinished last line the last read saw changed (redrawn in place, or the log was cut and regrown), so the bookmark starts over: "), reply.text);
  assert.match(reply.text, /\nprogress 20%\n/);
  assert.equal(engine.read(state, job, log, running).kind, "nothing_new");
});
