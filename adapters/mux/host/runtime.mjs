// Stands in for a mux `Runtime` (`src/node/runtime/Runtime.ts` is the interface): the part the
// background-process manager uses to spawn a job and read its files — a temporary folder, a
// folder made, a file written, and `exec`, which runs real `bash -c` here. So mux's own nohup
// wrapper, its `trap … EXIT` that writes `exit_code`, and its `tail -c` and `wc -c` reads all
// run as they do in mux.

import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";

export class HarnessRuntime {
  /** A runtime whose temporary folder is `dir` (mux puts `mux-bashes/<workspace>/<id>` there). */
  constructor(dir) {
    this.dir = dir;
  }

  async tempDir() {
    return this.dir;
  }

  async ensureDir(path) {
    mkdirSync(path, { recursive: true });
  }

  /** A stream whose bytes become the file at `path` when it closes. */
  writeFile(path) {
    const chunks = [];
    return new WritableStream({
      write(chunk) {
        chunks.push(Buffer.from(chunk));
      },
      close() {
        writeFileSync(path, Buffer.concat(chunks));
      },
    });
  }

  /**
   * Runs `command` with `bash -c` in `cwd`, killed after `timeout` seconds when given. With
   * `--norc`: bash whose stdin is a socket (node's pipes) and whose SHLVL is below 2 takes
   * itself for a remote shell and sources ~/.bashrc, so the user's startup files would run on
   * every read, slow it, and could print into what `wc -c` and `tail -c` return.
   */
  async exec(command, { cwd, env, timeout } = {}) {
    const started = Date.now();
    const child = spawn("bash", ["--norc", "-c", command], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const timer = timeout ? setTimeout(() => child.kill("SIGKILL"), timeout * 1000) : null;
    const exited = new Promise((resolve) => {
      child.on("error", () => resolve(127));
      child.on("close", (code, signal) => {
        if (timer) clearTimeout(timer);
        resolve(code ?? (signal ? 128 : 1));
      });
    });
    return {
      stdout: Readable.toWeb(child.stdout),
      stderr: Readable.toWeb(child.stderr),
      stdin: Writable.toWeb(child.stdin),
      exitCode: exited,
      duration: exited.then(() => Date.now() - started),
    };
  }
}
