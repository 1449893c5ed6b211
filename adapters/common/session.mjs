// What an adapter's own tests share: where the external inputs are (as bgtail's Rust tests
// find them: `BGTAIL_SHARED`, taken from the repository's root when relative, else `../shared`
// beside the checkout), and a session with an adapter's process over the protocol.

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** The repository's root. */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** `shared/<path>`, or an error naming where it was looked for. */
export function sharedInput(path) {
  const env = process.env.BGTAIL_SHARED;
  const dir = env ? resolve(REPO, env) : resolve(REPO, "..", "shared");
  const full = join(dir, path);
  if (!existsSync(full)) {
    throw new Error(`${full}: missing (the external inputs are in ../shared or $BGTAIL_SHARED; docs/inputs.md)`);
  }
  return full;
}

/** An adapter's process (`node main.mjs ARGS…`), talked to one request at a time. */
export class Session {
  constructor(main, args, env = {}) {
    this.child = spawn(process.execPath, [main, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } });
    this.stderr = "";
    this.child.stderr.on("data", (d) => (this.stderr += d));
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
    this.next = 0;
  }

  /** Sends `request` (its `msg_id` filled in) and returns the parsed reply. */
  async ask(request) {
    const msg_id = this.next++;
    this.child.stdin.write(JSON.stringify({ msg_id, ...request }) + "\n");
    const { value, done } = await this.lines.next();
    if (done) throw new Error(`the adapter exited before answering ${request.type}: ${this.stderr}`);
    const reply = JSON.parse(value);
    if (reply.in_reply_to !== msg_id) throw new Error(`answered ${reply.in_reply_to}, not ${msg_id}`);
    return reply;
  }

  /** Ends the process at once (a test's cleanup, so that a failed test leaves none). */
  kill() {
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }

  /** Closes stdin and waits for the exit status. */
  async close() {
    this.child.stdin.end();
    return new Promise((r) => this.child.on("close", (code) => r(code)));
  }
}

/** `node main.mjs ARGS…` run to its end: exit status and stderr. */
export function runToEnd(main, args) {
  return new Promise((r) => {
    const child = spawn(process.execPath, [main, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => r({ code, stderr }));
  });
}

export const INIT = { type: "init", protocol: "bgtail-eut", versions: [1] };
