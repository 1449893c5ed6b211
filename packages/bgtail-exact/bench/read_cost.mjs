// Read cost of the TypeScript engine, on the same generated logs and the same sequences as the
// Rust benchmark (`impl/benches/read_cost.rs`), one JSON object a figure on stdout.
// `scripts/bench-exact-ts.sh` runs both in one run and joins them into ratios.
//
//   node bench/read_cost.mjs [--sizes 1,64,1024] [--dir DIR]
//   node bench/read_cost.mjs --peak LOG [--idle]      (one child of the peak-memory figure)
//
// Each time is the median of 7 rounds (BGTAIL_BENCH_ROUNDS), each on a fresh bookmark, the log cut back to its length
// before each round. V8 compiles a function once it is hot, and the Rust engine needs no such
// warm-up: before any figure the engine runs every scenario on 1 MiB logs (as a harness's
// process has by the time a session is under way), and each scenario has 3 rounds more that are
// not timed.
import { appendFileSync, ftruncateSync, mkdtempSync, openSync, closeSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ExactEngine, FileSource, emptyState } from "../dist/index.js";

// As the Rust benchmark takes it: BGTAIL_BENCH_ROUNDS, 7 by default.
const ROUNDS = Number(process.env.BGTAIL_BENCH_ROUNDS ?? 7);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error("BGTAIL_BENCH_ROUNDS: a number of runs");
const WARM_UP = 3;
const JOB_ID = "bench-1-1";
const APPENDED = "appended line of a running job, 48 bytes long..\n";

/** The Rust benchmark's lines: `{i:09} ok test case {i % 977}` or a JSON line of 400–699 x's. */
function line(i, long) {
  if (long) return `{"seq":${i},"payload":"${"x".repeat(400 + (i % 300))}"}\n`;
  return `${String(i).padStart(9, "0")} ok test case ${i % 977}\n`;
}

/** Writes lines until the log holds at least `mib` MiB, in 1 MiB pieces. */
function generate(path, mib, long) {
  const fd = openSync(path, "w");
  const target = mib * 1048576;
  let written = 0;
  let i = 0;
  while (written < target) {
    let chunk = "";
    while (chunk.length < 1048576 && written + chunk.length < target) chunk += line(i++, long);
    writeSync(fd, chunk);
    written += chunk.length;
  }
  closeSync(fd);
}

/** Appends `n` bytes of 48-byte lines, the last one cut where `n` ends, as the Rust side does. */
function appendBytes(path, n) {
  if (n === 0) return;
  const whole = APPENDED.repeat(Math.ceil(n / APPENDED.length));
  appendFileSync(path, whole.slice(0, n));
}

function restore(path, len) {
  const fd = openSync(path, "r+");
  ftruncateSync(fd, len);
  closeSync(fd);
}

function readOnce(engine, state, path, request) {
  const log = FileSource.open(path);
  try {
    return engine.read(state, { id: JOB_ID, path }, log, request);
  } finally {
    log.close?.();
  }
}

/** One timed read on a fresh bookmark; with `primed` a first read of 40 lines and an append. */
function round(engine, path, base, primed, request) {
  restore(path, base);
  const state = emptyState();
  if (primed !== undefined) {
    readOnce(engine, state, path, { lines: 40 });
    appendBytes(path, primed);
  }
  const log = FileSource.open(path);
  const started = process.hrtime.bigint();
  const reply = engine.read(state, { id: JOB_ID, path }, log, request);
  const ns = Number(process.hrtime.bigint() - started);
  log.close?.();
  return { ns, bytes: reply.bytesRead };
}

function measure(engine, path, primed, request) {
  const base = statSync(path).size;
  for (let i = 0; i < WARM_UP; i++) round(engine, path, base, primed, request);
  const rounds = Array.from({ length: ROUNDS }, () => round(engine, path, base, primed, request));
  restore(path, base);
  const times = rounds.map((r) => r.ns).sort((a, b) => a - b);
  return { ms: times[ROUNDS >> 1] / 1e6, bytes: rounds[ROUNDS - 1].bytes };
}

/** 1,000 × (append 1 KiB, read 40 lines) on one bookmark: the total read time and bytes. */
function poll(engine, path) {
  const base = statSync(path).size;
  const state = emptyState();
  let ns = 0;
  let bytes = 0;
  for (let i = 0; i < 1000; i++) {
    appendBytes(path, 1024);
    const log = FileSource.open(path);
    const started = process.hrtime.bigint();
    const reply = engine.read(state, { id: JOB_ID, path }, log, { lines: 40 });
    ns += Number(process.hrtime.bigint() - started);
    log.close?.();
    bytes += reply.bytesRead;
  }
  restore(path, base);
  return { ms: ns / 1e6, bytes };
}

const SCENARIOS = [
  ["first read, lines 40", { lines: 40 }, undefined],
  ["first read, lines 400", { lines: 400 }, undefined],
  ["delta after +1 KiB", { lines: 40 }, 1024],
  ["delta after +1 MiB", { lines: 40 }, 1048576],
  ["widening 40 → 400", { lines: 400 }, 0],
  ["raw, lines 40", { lines: 40, raw: true }, undefined],
];

function emit(figure) {
  process.stdout.write(JSON.stringify({ engine: "typescript", ...figure }) + "\n");
}

/** Every scenario 30 times and 300 polls on 1 MiB logs of short and of long lines, untimed, so
 *  that the engine's hot functions are compiled before the first figure. */
function warmUp(engine, dir) {
  for (const long of [false, true]) {
    const path = join(dir, `warm-up-${long}.log`);
    generate(path, 1, long);
    const base = statSync(path).size;
    for (const [, request, primed] of SCENARIOS) {
      for (let i = 0; i < 30; i++) round(engine, path, base, primed, request);
    }
    restore(path, base);
    const state = emptyState();
    for (let i = 0; i < 300; i++) {
      appendBytes(path, 1024);
      readOnce(engine, state, path, { lines: 40 });
    }
    rmSync(path);
  }
}

function figures(sizes, dir) {
  const engine = new ExactEngine();
  warmUp(engine, dir);
  for (const mib of sizes) {
    for (const long of [false, true]) {
      const path = join(dir, `log-${mib}-${long}.log`);
      generate(path, mib, long);
      const log = { mib, lines: long ? "long" : "short", size: statSync(path).size };
      for (const [scenario, request, primed] of SCENARIOS) {
        emit({ ...log, scenario, ...measure(engine, path, primed, request) });
      }
      emit({ ...log, scenario: "polling: 1,000 × (+1 KiB, read) total", ...poll(engine, path) });
      if (!long) emit({ ...log, scenario: PEAK, ...peak(path) });
      rmSync(path);
    }
  }
}

const PEAK = "peak memory: a first read and 1,000 × (+1 KiB, read)";

/**
 * What a poll costs a node process in memory: the peak resident set it adds to a process that
 * loads the package and reads nothing (V8's young generation fills with garbage between
 * collections, and hot functions are compiled), and the heap still held after a full
 * collection, in KiB.
 */
function peak(path) {
  const child = (...args) =>
    JSON.parse(execFileSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--peak", path, ...args]));
  const idle = child("--idle");
  const reading = child();
  return { kib: reading.maxRssKiB - idle.maxRssKiB, idleKiB: idle.maxRssKiB, retainedKiB: reading.retainedKiB };
}

/**
 * One child of the peak-memory figure: a first read and 1,000 polls of the log at `path`
 * (cut back afterwards), or, with `idle`, the same process doing no read.
 */
function peakChild(path, idle) {
  const engine = new ExactEngine();
  const base = statSync(path).size;
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  if (!idle) {
    const state = emptyState();
    readOnce(engine, state, path, { lines: 40 });
    for (let i = 0; i < 1000; i++) {
      appendBytes(path, 1024);
      readOnce(engine, state, path, { lines: 40 });
    }
    restore(path, base);
  }
  globalThis.gc();
  const retainedKiB = Math.round((process.memoryUsage().heapUsed - before) / 1024);
  process.stdout.write(JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS, retainedKiB }) + "\n");
}

function main(argv) {
  const at = (flag) => {
    const i = argv.indexOf(flag);
    return i < 0 ? undefined : argv[i + 1];
  };
  if (at("--peak") !== undefined) return peakChild(at("--peak"), argv.includes("--idle"));
  const sizes = (at("--sizes") ?? "1,64").split(",").map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--sizes: ${JSON.stringify(s)} is not a size in MiB`);
    return n;
  });
  const dir = at("--dir") ?? mkdtempSync(join(tmpdir(), "bgtail-exact-bench-"));
  try {
    figures(sizes, dir);
  } finally {
    if (at("--dir") === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2));
