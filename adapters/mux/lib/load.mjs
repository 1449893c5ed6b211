// Loads a coder/mux checkout's real background-process manager
// (`src/node/services/backgroundProcessManager.ts`, which `bash_output` calls): bundled with
// esbuild at run time from the checkout (type stripping and bundling only; `@/` means `src/`),
// written to a temporary folder, imported, and the folder removed. mux is AGPL-3.0-only: its
// code is only ever loaded from the checkout the user names; no copy and no bundle of it is
// kept in this project.
//
// Two modules have stand-ins in ../host, each saying what it stands in for: `./log` (the real
// one imports chalk) and `@/node/runtime/LocalBaseRuntime` (only named in an `instanceof`).

import { build } from "esbuild";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LoadError, bundleEntry, importBundle } from "../../common/bundle.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const hostDir = join(here, "..", "host");

export { LoadError };

/** Where the manager lives in a checkout. */
export const ENTRY = join("src", "node", "services", "backgroundProcessManager.ts");

/** Bundles and imports the checkout's manager; returns its class, the version, and the entry. */
export async function loadCheckout(checkout) {
  const root = resolve(checkout);
  const entry = join(root, ENTRY);
  if (!existsSync(entry)) {
    throw new LoadError(`${root}: not a mux checkout (no ${ENTRY})`);
  }
  const code = await bundleEntry(build, entry, { alias: { "@": join(root, "src") }, plugins: [standIns()] });
  const module = await importBundle(code, "bgtail-mux-", "backgroundProcessManager.mjs");
  if (typeof module.BackgroundProcessManager !== "function") {
    throw new LoadError(`${entry}: it exports no BackgroundProcessManager class`);
  }
  return { Manager: module.BackgroundProcessManager, version: version(root), entry };
}

/** `./log` and `@/node/runtime/LocalBaseRuntime` resolved to the stand-ins. */
function standIns() {
  return {
    name: "mux-stand-ins",
    setup(b) {
      b.onResolve({ filter: /^\.\/log$/ }, () => ({ path: join(hostDir, "log.mjs") }));
      b.onResolve({ filter: /^@\/node\/runtime\/LocalBaseRuntime$/ }, () => ({
        path: join(hostDir, "LocalBaseRuntime.mjs"),
      }));
    },
  };
}

/** The checkout's package.json version, or "unknown". */
function version(root) {
  try {
    return String(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version ?? "unknown");
  } catch {
    return "unknown";
  }
}
