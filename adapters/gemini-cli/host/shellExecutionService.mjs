// Stands in for Gemini CLI's `packages/core/src/services/shellExecutionService.ts`, which
// spawns the job under a pty and writes its ANSI-stripped output to a log file per pid. The
// reader asks it two things, and this gives both from the harness's world: which pids the
// session may read (`listBackgroundProcesses`) and where a pid's log is (`getLogFilePath`).
// The adapter registers each job the harness names; nothing here reads or writes a log.

const jobs = new Map();

export const ShellExecutionService = {
  /** The session's background processes, as upstream lists them (pid, status, command). */
  listBackgroundProcesses(_sessionId) {
    return [...jobs.values()].map((j) => ({ pid: j.pid, status: "running", command: j.command }));
  },

  /** Where the log of `pid` is: the file the harness writes. */
  getLogFilePath(pid) {
    for (const j of jobs.values()) if (j.pid === pid) return j.logPath;
    return `/nonexistent/background-${pid}.log`;
  },
};

/** Registers `jobId` with the log at `logPath` under `pid` (the adapter's side). */
export function registerJob(jobId, pid, logPath) {
  jobs.set(jobId, { pid, logPath, command: `bgtail job ${jobId}` });
}

/** Forgets every job (a fresh session). */
export function forgetJobs() {
  jobs.clear();
}
