// Stands in for `@earendil-works/pi-coding-agent`, the pi host's package. The extension takes two
// values from it: the host's config directory name (`.pi` under upstream pi; `.omp` would tell
// the extension it runs under oh-my-pi) and the agent directory its user config lives in.
// The loader points PI_BGRUN_USER_CONFIG at a missing file, so this directory is never read;
// it is a fresh, empty folder all the same, so that nothing of the machine's user leaks in.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CONFIG_DIR_NAME = ".pi";

let agentDir;

/** The host's agent directory: an empty temporary folder made on first use. */
export function getAgentDir() {
  agentDir ??= mkdtempSync(join(tmpdir(), "bgtail-pi-agent-"));
  return agentDir;
}
