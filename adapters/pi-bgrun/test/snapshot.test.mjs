// The pi-bgrun adapter's snapshot and restore over the protocol, with the checkout in ../shared:
// loaded with `--exact` it hands out the engine's bookmarks and takes them back, so that the
// harness rebuilds a state by restoring it; its own code, whose bookmarks stay inside the
// extension, says it cannot.

import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { INIT, REPO, Session, sharedInput } from "../../common/session.mjs";

const MAIN = join(REPO, "adapters", "pi-bgrun", "main.mjs");
const JOB = "model-1-1";

/** A session with the adapter (`--exact` when `exact`), ended when the test ends. */
async function session(t, exact) {
  const args = [sharedInput("upstream/pi-bgrun-0.7.1"), ...(exact ? ["--exact"] : [])];
  const s = new Session(MAIN, args);
  t.after(() => s.kill());
  const ok = await s.ask(INIT);
  assert.equal(ok.type, "init_ok", JSON.stringify(ok));
  return { s, ok };
}

/** A folder with the job's log holding `text`, and a read of it. */
function logWith(text) {
  const dir = mkdtempSync(join(tmpdir(), "bgtail-pi-bgrun-"));
  const log = join(dir, `${JOB}.log`);
  writeFileSync(log, text);
  const read = { type: "read", job_id: JOB, log_path: log, lines: 5, running: true };
  return { log, read };
}

test("with --exact a restored snapshot reads as the state it was taken from", async (t) => {
  const { s, ok } = await session(t, true);
  assert.equal(ok.capabilities.snapshot, true);
  assert.deepEqual((await s.ask({ type: "snapshot" })).state, { bookmarks: [] });
  const { log, read } = logWith("one\ntwo\n");
  await s.ask(read);
  const taken = await s.ask({ type: "snapshot" });
  assert.equal(taken.state.bookmarks.length, 1);
  appendFileSync(log, "three\n");
  const first = await s.ask(read);
  assert.match(first.text, /three/);
  assert.equal((await s.ask({ type: "restore", state: taken.state })).type, "restore_ok");
  const again = await s.ask(read);
  assert.deepEqual(again, { ...first, in_reply_to: again.in_reply_to });
  // After a reset there is no instance: a snapshot's bookmarks make one in the log's folder.
  await s.ask({ type: "reset" });
  assert.equal((await s.ask({ type: "restore", state: taken.state })).type, "restore_ok");
  const restored = await s.ask(read);
  assert.deepEqual(restored, { ...first, in_reply_to: restored.in_reply_to });
});

test("with --exact a state that is not the engine's is refused, naming what is wrong", async (t) => {
  const { s } = await session(t, true);
  for (const state of [null, { bookmarks: "none" }, { bookmarks: [["x", { path: 3 }]] }]) {
    const reply = await s.ask({ type: "restore", state });
    assert.equal(reply.type, "error", JSON.stringify(reply));
    assert.equal(reply.code, "malformed");
    assert.match(reply.text, /not a state of this engine/);
  }
  // The session goes on, its bookmarks untouched.
  assert.deepEqual((await s.ask({ type: "snapshot" })).state, { bookmarks: [] });
});

test("0.7.1's own code cannot hand out its bookmarks", async (t) => {
  const { s, ok } = await session(t, false);
  assert.equal(ok.capabilities.snapshot, false);
  const reply = await s.ask({ type: "snapshot" });
  assert.equal(reply.code, "not_supported");
  assert.match(reply.text, /inside the extension instance/);
});
