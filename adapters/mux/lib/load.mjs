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
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const hostDir = join(here, "..", "host");

/** A checkout that cannot be loaded: names the path and what is wrong with it. */
export class LoadError extends Error {}

/** Where the manager lives in a checkout. */
export const ENTRY = join("src", "node", "services", "backgroundProcessManager.ts");

/** Bundles and imports the checkout's manager; returns its class, the version, and the entry. */
export async function loadCheckout(checkout) {
  const root = resolve(checkout);
  const entry = join(root, ENTRY);
  if (!existsSync(entry)) {
    throw new LoadError(`${root}: not a mux checkout (no ${ENTRY})`);
  }
  const code = await bundle(root, entry);
  const dir = mkdtempSync(join(tmpdir(), "bgtail-mux-"));
  const file = join(dir, "backgroundProcessManager.mjs");
  writeFileSync(file, code);
  let module;
  try {
    module = await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (typeof module.BackgroundProcessManager !== "function") {
    throw new LoadError(`${entry}: it exports no BackgroundProcessManager class`);
  }
  return { Manager: module.BackgroundProcessManager, version: version(root), entry };
}

async function bundle(root, entry) {
  try {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      target: "node20",
      alias: { "@": join(root, "src") },
      plugins: [standIns()],
      logLevel: "silent",
    });
    return result.outputFiles[0].contents;
  } catch (err) {
    const first = err.errors?.[0];
    const where = first?.location
      ? `${first.location.file}:${first.location.line}:${first.location.column}: `
      : `${entry}: `;
    throw new LoadError(`${where}cannot bundle: ${first?.text ?? err.message}`);
  }
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
