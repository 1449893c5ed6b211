// The Gemini CLI adapter over the protocol, with the checkout in ../shared: each reply is the
// real tool's, and what the tool's schema refuses is `not_supported`.

import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { INIT, REPO, Session, runToEnd, sharedInput } from "../../common/session.mjs";
import { LoadError, loadCheckout } from "../lib/load.mjs";

const MAIN = join(REPO, "adapters", "gemini-cli", "main.mjs");
const checkout = () => sharedInput("upstream/gemini-cli-5411f113");

/** A session with the adapter, ended when the test ends, passed or not. */
function session(t) {
  const s = new Session(MAIN, [checkout()]);
  t.after(() => s.kill());
  return s;
}

test("a folder that is not a checkout is refused, naming it", async () => {
  await assert.rejects(loadCheckout(tmpdir()), (e) => e instanceof LoadError && e.message.includes("not a Gemini CLI checkout"));
  const { code, stderr } = await runToEnd(MAIN, [tmpdir()]);
  assert.equal(code, 2);
  assert.match(stderr, /not a Gemini CLI checkout/);
});

test("init declares the reader: its format, its 64 KiB view and 100 lines, its own exit", async (t) => {
  const s = session(t);
  const ok = await s.ask(INIT);
  assert.equal(ok.text_format, "gemini-cli-0.56");
  assert.deepEqual(ok.limits, { view_default: 65536, lines_default: 100 });
  assert.equal(ok.capabilities.exit_by_running, true);
  assert.equal(ok.capabilities.raw, undefined);
  assert.equal(await s.close(), 0);
});

test("reads are the tool's own replies; a lines the schema refuses is not_supported", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "gemini-test-"));
  const log = join(dir, "j.log");
  writeFileSync(log, "a\nb\nc\n");
  const s = session(t);
  await s.ask(INIT);
  const read = (extra) => s.ask({ type: "read", job_id: "j", log_path: log, running: true, ...extra });
  assert.equal((await read({ lines: 2 })).text, "Showing last 2 of 3 lines:\nb\nc");
  assert.equal((await read({})).text, "Full Log Output:\na\nb\nc");
  for (const lines of [0, 1.5, null]) {
    const refused = await read({ lines });
    assert.equal(refused.code, "not_supported", JSON.stringify(lines));
    assert.match(refused.text, /read_background_output refuses lines/);
  }
  writeFileSync(log, "");
  assert.equal((await read({})).text, "Log is empty.");
  const missing = await s.ask({ type: "read", job_id: "j", log_path: join(dir, "gone.log") });
  assert.equal(missing.is_error, true);
  assert.match(missing.text, /^No output log found for process ID \d+/);
  assert.equal(await s.close(), 0);
});

test("a snapshot is the adapter's pid table; a corrupt one is refused by name", async (t) => {
  const s = session(t);
  await s.ask(INIT);
  const dir = mkdtempSync(join(tmpdir(), "gemini-test-"));
  writeFileSync(join(dir, "j.log"), "x\n");
  await s.ask({ type: "read", job_id: "j", log_path: join(dir, "j.log") });
  const snap = await s.ask({ type: "snapshot" });
  assert.deepEqual(snap.state, { pids: [["j", 4000]] });
  assert.equal((await s.ask({ type: "restore", state: snap.state })).type, "restore_ok");
  const bad = await s.ask({ type: "restore", state: { pids: "nope" } });
  assert.equal(bad.code, "malformed");
  assert.match(bad.text, /state\.pids/);
  assert.equal(await s.close(), 0);
});
