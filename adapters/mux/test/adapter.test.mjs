// The mux adapter over the protocol, with the checkout in ../shared: each reply is the real
// manager's result object, read as bash_output reads, and the job exits mux's own way.

import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { INIT, REPO, Session, runToEnd, sharedInput } from "../../common/session.mjs";
import { HarnessRuntime } from "../host/runtime.mjs";
import { LoadError, loadCheckout } from "../lib/load.mjs";

const MAIN = join(REPO, "adapters", "mux", "main.mjs");
const checkout = () => sharedInput("upstream/mux-f2160b19");

/** A session with the adapter, ended when the test ends, passed or not. */
function session(t) {
  const s = new Session(MAIN, [checkout()]);
  t.after(() => s.kill());
  return s;
}

/** The result object a read's text carries. */
const result = (reply) => JSON.parse(reply.text);

test("a folder that is not a checkout is refused, naming it", async () => {
  await assert.rejects(loadCheckout(tmpdir()), (e) => e instanceof LoadError && e.message.includes("not a mux checkout"));
  const { code, stderr } = await runToEnd(MAIN, [tmpdir()]);
  assert.equal(code, 2);
  assert.match(stderr, /not a mux checkout/);
});

test("init declares the reader: its format, no window, no limits of its own, its own exit", async (t) => {
  const s = session(t);
  const ok = await s.ask(INIT);
  assert.equal(ok.text_format, "mux-0.28");
  assert.deepEqual(ok.capabilities, { reset: true, no_window: true, exit_by_running: true });
  assert.deepEqual(ok.limits, {});
  assert.equal(await s.close(), 0);
});

test("new complete lines come once, the partial one when complete, and the exit through exit_code", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "mux-test-"));
  const log = join(dir, "j.log");
  writeFileSync(log, "a\nb\nc");
  const s = session(t);
  await s.ask(INIT);
  const read = (running) => s.ask({ type: "read", job_id: "j", log_path: log, lines: 1, running });
  let r = result(await read(true));
  assert.equal(r.status, "running");
  assert.equal(r.output, "a\nb");
  appendFileSync(log, "d\n\ne\n");
  assert.equal(result(await read(true)).output, "cd\n\ne");
  r = result(await read(false));
  assert.equal(r.status, "exited");
  assert.equal(r.exitCode, 0);
  assert.equal(r.output, "");
  assert.equal((await s.ask({ type: "reset" })).type, "reset_ok");
  // After a reset the job starts afresh: everything is new again.
  assert.equal(result(await read(true)).output, "a\nb\ncd\n\ne");
  assert.equal(await s.close(), 0);
});

test("a reset ends every job and leaves no scratch folder", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "mux-test-"));
  const scratch = mkdtempSync(join(tmpdir(), "mux-test-tmp-"));
  writeFileSync(join(dir, "j.log"), "x\n");
  const s = new Session(MAIN, [checkout()], { TMPDIR: scratch });
  t.after(() => s.kill());
  await s.ask(INIT);
  await s.ask({ type: "read", job_id: "j", log_path: join(dir, "j.log"), running: true });
  assert.equal(readdirSync(scratch).filter((f) => f.startsWith("bgtail-mux-world-")).length, 1);
  await s.ask({ type: "reset" });
  assert.deepEqual(readdirSync(scratch).filter((f) => f.startsWith("bgtail-mux-world-")), []);
  const snap = await s.ask({ type: "snapshot" });
  assert.equal(snap.code, "not_supported");
  assert.equal(await s.close(), 0);
});

/** The pids of the processes whose command line names `text` (Linux's /proc). */
function processesNaming(text) {
  const pids = [];
  for (const pid of readdirSync("/proc").filter((f) => /^\d+$/.test(f))) {
    try {
      if (readFileSync(join("/proc", pid, "cmdline"), "latin1").includes(text)) pids.push(pid);
    } catch {} // gone between the listing and the read
  }
  return pids;
}

test("a job ends when the adapter is killed, which removes nothing", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "mux-test-"));
  const scratch = mkdtempSync(join(tmpdir(), "mux-test-tmp-"));
  t.after(() => rmSync(scratch, { recursive: true, force: true }));
  writeFileSync(join(dir, "j.log"), "x\n");
  const s = new Session(MAIN, [checkout()], { TMPDIR: scratch });
  t.after(() => s.kill());
  await s.ask(INIT);
  await s.ask({ type: "read", job_id: "j", log_path: join(dir, "j.log"), running: true });
  assert.equal(processesNaming(scratch).length, 1, "the job's loop runs while the adapter does");
  s.kill();
  let left = processesNaming(scratch);
  for (let i = 0; i < 200 && left.length > 0; i++) {
    await sleep(10);
    left = processesNaming(scratch);
  }
  assert.deepEqual(left, [], "the job outlived the adapter");
});

test("a command runs without the user's shell startup files, whatever SHLVL says", async () => {
  // bash run with a socket for stdin (node's pipes) and SHLVL below 2 takes itself for a
  // remote shell and sources ~/.bashrc: a user's startup files would slow every read and
  // could print into what mux's `wc -c` and `tail -c` return.
  const home = mkdtempSync(join(tmpdir(), "bgtail-mux-home-"));
  const marker = join(home, "sourced");
  writeFileSync(join(home, ".bashrc"), `echo sourced > '${marker}'\necho from-bashrc\n`);
  const runtime = new HarnessRuntime(home);
  const run = await runtime.exec("echo out", { cwd: home, env: { HOME: home, SHLVL: "0" } });
  await run.stdin.close();
  const text = await new Response(run.stdout).text();
  assert.equal(await run.exitCode, 0);
  assert.equal(text, "out\n");
  assert.deepEqual(readdirSync(home).sort(), [".bashrc"]);
});
