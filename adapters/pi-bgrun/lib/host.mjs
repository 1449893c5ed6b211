// A headless pi host for one extension instance: the object the factory registers its tools
// on, and the context `execute` receives. Only what bgtail touches is real; the rest records
// nothing and answers as a host without a UI would.

import { join } from "node:path";

/**
 * Runs the extension factory once against a fresh host and returns its `bgtail` tool.
 * `jobsDir` is where job logs live (`<jobsDir>/<id>.log`); `cwd` is the session's folder.
 */
export function newInstance(factory, { jobsDir, cwd }) {
  // The extension resolves its config on every call, from the environment first.
  process.env.PI_BGRUN_DIR = jobsDir;
  process.env.PI_BGRUN_USER_CONFIG = join(jobsDir, "no-user-config.json");
  const tools = new Map();
  const pi = {
    on() {},
    registerTool(tool) {
      tools.set(tool.name, tool);
    },
    registerCommand() {},
    registerShortcut() {},
    registerFlag() {},
    registerMessageRenderer() {},
    appendEntry() {},
    sendUserMessage() {},
    sendMessage() {},
  };
  factory(pi);
  const bgtail = tools.get("bgtail");
  if (!bgtail || typeof bgtail.execute !== "function") {
    throw new Error("the extension registered no bgtail tool");
  }
  const ctx = {
    cwd,
    hasUI: false,
    isProjectTrusted: () => false,
    isIdle: () => true,
    ui: { notify() {}, setWidget() {}, setStatus() {} },
    sessionManager: { getEntries: () => [] },
  };
  return {
    /**
     * Calls bgtail as pi would after validating `params`, with the job logs in `dir` (by
     * default the instance's `jobsDir`). Returns the agent's view of the
     * result: `{text, details, isError}`, or `{thrown}` when the tool threw (an invalid id).
     */
    async read(params, dir = jobsDir) {
      process.env.PI_BGRUN_DIR = dir;
      let result;
      try {
        result = await bgtail.execute("call", params, undefined, undefined, ctx);
      } catch (err) {
        return { thrown: String(err?.message ?? err) };
      }
      const text = (result.content ?? [])
        .filter((c) => c.type === "text")
        .map((c) => c.text)
        .join("");
      return { text, details: result.details ?? {}, isError: result.isError === true };
    },
  };
}
