#!/usr/bin/env node
// An engine that speaks bgtail-eut v1 correctly until its first read, then misbehaves as
// MODE says, so that the harness's errors can be tested:
//   crash       exits with status 3
//   hang        never answers
//   malformed   answers with a line that is not JSON
//   duplicate   answers the read twice
//   wrong-id    answers another msg_id
//   version     offers protocol version 2 in its handshake
//   noisy       writes to stderr, then answers every read with "ok"
//   ok          answers every read with "ok" (the protocol's own cost, for the bench)
//   crash-on=ID answers every read with "ok", but exits with status 3 on a read of job ID
import { createInterface } from "node:readline";

const mode = process.argv[2];
const send = (m) => process.stdout.write((typeof m === "string" ? m : JSON.stringify(m)) + "\n");
const ok = (id) => ({ type: "read_ok", in_reply_to: id, text: "ok", details: {}, is_error: false });

for await (const line of createInterface({ input: process.stdin })) {
  const req = JSON.parse(line);
  if (req.type === "init") {
    send({
      type: "init_ok",
      in_reply_to: req.msg_id,
      version: mode === "version" ? 2 : 1,
      engine: { name: `misbehaving-${mode}`, version: "1" },
      capabilities: { raw: true, bytes: true, reset: true },
    });
    continue;
  }
  if (req.type === "reset") {
    send({ type: "reset_ok", in_reply_to: req.msg_id });
    continue;
  }
  if (mode.startsWith("crash-on=")) {
    if (req.job_id === mode.slice("crash-on=".length)) process.exit(3);
    send(ok(req.msg_id));
    continue;
  }
  switch (mode) {
    case "crash":
      process.exit(3);
    case "hang":
      break;
    case "malformed":
      send("this is not json");
      break;
    case "duplicate":
      send(ok(req.msg_id));
      send(ok(req.msg_id));
      break;
    case "wrong-id":
      send(ok(req.msg_id + 100));
      break;
    case "ok":
      send(ok(req.msg_id));
      break;
    case "noisy":
      process.stderr.write(`reading ${req.job_id}\n`);
      send(ok(req.msg_id));
      break;
  }
}
