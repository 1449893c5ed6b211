// The shared protocol loop, driven through streams with a stand-in adapter.

import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { serveEut } from "../eut.mjs";

/** Every reply `adapter` gives to `requests` (strings are sent as they are). */
async function replies(adapter, requests) {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = "";
  output.on("data", (chunk) => (text += chunk));
  const served = serveEut(adapter, { input, output });
  for (const r of requests) input.write((typeof r === "string" ? r : JSON.stringify(r)) + "\n");
  input.end();
  await served;
  return text.trim().split("\n").map((l) => JSON.parse(l));
}

const adapter = {
  reads: 0,
  describe: () => ({ engine: { name: "stand-in", version: "1" }, capabilities: { raw: true }, text_format: "bgtail-exact-1" }),
  read(request, id) {
    this.reads += 1;
    return { type: "read_ok", in_reply_to: id, text: `read ${request.job_id}`, details: {}, is_error: false };
  },
  reset: (id) => ({ type: "reset_ok", in_reply_to: id }),
  noSnapshot: "the stand-in keeps nothing",
};

test("init agrees on version 1 and carries the adapter's description, in order", async () => {
  const [ok, refused] = await replies(adapter, [
    { type: "init", msg_id: 1, versions: [1] },
    { type: "init", msg_id: 2, versions: [2, 3] },
  ]);
  assert.deepEqual(Object.keys(ok), ["type", "in_reply_to", "version", "engine", "capabilities", "text_format"]);
  assert.equal(ok.version, 1);
  assert.equal(ok.engine.name, "stand-in");
  assert.equal(refused.code, "not_supported");
  assert.match(refused.text, /versions \[2,3\]: this adapter speaks 1/);
});

test("a line that is not JSON is answered malformed, naming the line, and serving goes on", async () => {
  const got = await replies(adapter, ["{oops", "", { type: "reset", msg_id: 7 }]);
  assert.equal(got.length, 2, "a blank line gets no reply");
  assert.equal(got[0].code, "malformed");
  assert.equal(got[0].in_reply_to, 0);
  assert.match(got[0].text, /^request line 1: /);
  assert.deepEqual(got[1], { type: "reset_ok", in_reply_to: 7 });
});

test("a read without job_id or log_path never reaches the adapter", async () => {
  const counting = { ...adapter, reads: 0 };
  const [bad, good] = await replies(counting, [
    { type: "read", msg_id: 3, job_id: "a" },
    { type: "read", msg_id: 4, job_id: "a", log_path: "/x/a.log" },
  ]);
  assert.equal(bad.code, "malformed");
  assert.equal(good.text, "read a");
  assert.equal(counting.reads, 1);
});

test("snapshot and restore without handlers are not_supported, with the adapter's reason", async () => {
  const got = await replies(adapter, [{ type: "snapshot", msg_id: 5 }, { type: "restore", msg_id: 6, state: "x" }]);
  for (const [i, r] of got.entries()) {
    assert.deepEqual(r, { type: "error", in_reply_to: 5 + i, code: "not_supported", text: "the stand-in keeps nothing" });
  }
});

test("an unknown type is malformed; a handler that throws is internal, and serving goes on", async () => {
  const throwing = { ...adapter, read: () => { throw new Error("boom"); } };
  const got = await replies(throwing, [
    { type: "dance", msg_id: 8 },
    { type: "read", msg_id: 9, job_id: "a", log_path: "/x/a.log" },
    { type: "reset", msg_id: 10 },
  ]);
  assert.equal(got[0].code, "malformed");
  assert.match(got[0].text, /unknown type "dance"/);
  assert.deepEqual(got[1], { type: "error", in_reply_to: 9, code: "internal", text: "request line 2: boom" });
  assert.equal(got[2].type, "reset_ok");
});

test("a msg_id that is not an integer is answered as 0", async () => {
  const [r] = await replies(adapter, [{ type: "reset", msg_id: "seven" }]);
  assert.equal(r.in_reply_to, 0);
});
