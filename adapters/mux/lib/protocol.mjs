// Protocol mode: a mux checkout's real background-process manager behind bgtail's
// engine-under-test protocol (`bgtail-eut` v1, docs/engine-protocol.md), read the way mux's
// `bash_output` tool reads: `manager.getOutput(process_id, filter ?? undefined,
// filter_exclude ?? undefined, timeout_secs, abortSignal, workspaceId)`, here with no filter
// and `timeout_secs: 0` (a poll), and its result object returned as the text the model sees.
// (bash_output's own wrapper first checks that the process belongs to the workspace; every job
// here is the workspace's, so that check always passes.)
//
// Each job the harness names is spawned by mux's own `manager.spawn` through a `Runtime`
// stand-in that runs real bash: mux's nohup wrapper runs a script that says it started, waits
// for a flag file and exits 0, so mux's own `trap … EXIT` writes `exit_code`. Once the job has
// started (its output redirection is open), `<outputDir>/output.log` is replaced by a symbolic
// link to the harness's log: mux's `wc -c` and `tail -c` go by path, so they read the harness's
// bytes. When a read says `running: false`, the adapter touches the flag and waits for
// `exit_code`, and mux sees the exit its own way: no `__BGRUN_EXIT__` line is needed.
//
// The manager's bookmarks live in real processes and files, so there is no `snapshot`: the
// harness rebuilds a state by `reset` (every job ended, a fresh manager) and replaying reads.

import { existsSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync, readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { error, serveEut } from "../../common/eut.mjs";
import { HarnessRuntime } from "../host/runtime.mjs";

const WORKSPACE = "bgtail-harness";

/** How long the adapter waits for a job to start or for mux's trap to write `exit_code`. */
const WAIT_MS = 10_000;

/** Serves `Manager` (a checkout's BackgroundProcessManager, version `version`) until stdin closes. */
export function serve(Manager, version) {
  let world = null;
  const end = async () => {
    const ending = world;
    world = null;
    await ending?.close();
  };
  process.on("exit", () => world?.abandon());
  return serveEut({
    describe: () => ({
      engine: { name: "mux", version },
      capabilities: { reset: true, no_window: true, exit_by_running: true },
      limits: {},
      text_format: "mux-0.28",
    }),
    async read(request, id) {
      world ??= new World(Manager);
      return world.read(request, id);
    },
    async reset(id) {
      await end();
      return { type: "reset_ok", in_reply_to: id };
    },
    noSnapshot: "mux keeps its read cursors in a live manager whose jobs are real processes",
  });
}

/** A fresh manager, its scratch folder, and the jobs spawned in it. */
class World {
  constructor(Manager) {
    this.dir = mkdtempSync(join(tmpdir(), "bgtail-mux-world-"));
    this.runtime = new HarnessRuntime(this.dir);
    this.manager = new Manager(join(this.dir, "sessions"));
    this.jobs = new Map();
  }

  async read(request, id) {
    const job = await this.job(request.job_id, id);
    pointAt(job.outputLog, request.log_path);
    if (!request.running && !job.exited) await this.finish(job);
    const result = await this.manager.getOutput(job.processId, undefined, undefined, 0, new AbortController().signal, WORKSPACE);
    return {
      type: "read_ok",
      in_reply_to: id,
      text: JSON.stringify(result).toWellFormed(),
      details: {},
      is_error: result.success !== true,
    };
  }

  /** The job the harness calls `jobId`, spawned by mux on its first read. */
  async job(jobId) {
    if (this.jobs.has(jobId)) return this.jobs.get(jobId);
    const n = this.jobs.size;
    const started = join(this.dir, `job-${n}.started`);
    const flag = join(this.dir, `job-${n}.exit`);
    // The job also ends when its started file is gone (the scratch folder removed at a reset)
    // or when this process is (killed, it removes nothing), so that no job outlives its world.
    const script = `touch ${quote(started)}; while [ -e ${quote(started)} ] && [ ! -e ${quote(flag)} ] && kill -0 ${process.pid} 2>/dev/null; do sleep 0.01; done; exit 0`;
    const spawned = await this.manager.spawn(this.runtime, WORKSPACE, script, { cwd: this.dir, displayName: `job-${n}` });
    if (!spawned.success) throw new Error(`mux could not spawn job ${jobId}: ${spawned.error}`);
    await waitFor(started, `job ${jobId} to start`);
    const job = { processId: spawned.processId, outputLog: join(spawned.outputDir, "output.log"), flag, exitCode: join(spawned.outputDir, "exit_code"), exited: false };
    this.jobs.set(jobId, job);
    return job;
  }

  /** Ends the job and waits until mux's trap has written `exit_code`. */
  async finish(job) {
    writeFileSync(job.flag, "");
    await waitFor(job.exitCode, `mux's exit_code for ${job.processId}`);
    job.exited = true;
  }

  /** Ends every job, waits for mux's trap to write each `exit_code`, and removes the folder. */
  async close() {
    for (const job of this.jobs.values()) {
      if (!job.exited) await this.finish(job);
    }
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 10 });
  }

  /** At the adapter's exit: the folder removed, which ends every job still waiting in it. */
  abandon() {
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 10 });
  }
}

/** Makes `link` a symbolic link to `target` (mux reads the harness's log through it). */
function pointAt(link, target) {
  let current = null;
  try {
    current = readlinkSync(link);
  } catch {}
  if (current === target) return;
  try {
    unlinkSync(link);
  } catch {}
  symlinkSync(target, link);
}

/** Waits until `path` exists, or throws after WAIT_MS naming what it waited for. */
async function waitFor(path, what) {
  const until = Date.now() + WAIT_MS;
  while (!existsSync(path)) {
    if (Date.now() > until) throw new Error(`waited ${WAIT_MS} ms for ${what} (${path})`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** `s` quoted for bash. */
function quote(s) {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
