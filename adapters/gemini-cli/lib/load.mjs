// Loads a Gemini CLI checkout's real `read_background_output` tool: its
// `packages/core/src/tools/shellBackgroundTools.ts` is bundled with esbuild (type stripping and
// bundling only; nothing of upstream's logic is rewritten) and imported. Gemini's sources
// import `./x.js` meaning `./x.ts`, so a resolve rule maps one to the other; the two host
// modules the reader reaches that are not part of it have stand-ins in ../host:
// - `services/shellExecutionService.js` (the pty runner that writes each pid's log) — the
//   stand-in maps the harness's jobs to pids and log paths;
// - `utils/debugLogger.js` (not among the reader's files) — the stand-in writes to stderr.
// The schema validator is upstream's own, with upstream's pinned ajv and ajv-formats.
//
// The stand-in for the execution service stays outside the bundle (an absolute file URL), so
// that the bundle and the adapter share the one module and its job table.

import { build } from "esbuild";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { LoadError, bundleEntry, importBundle } from "../../common/bundle.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const hostDir = join(here, "..", "host");
// The folder npm installed upstream's pinned ajv into (the workspace root's node_modules, or the
// adapter's own when its version differs): the bundle resolves the checkout's imports of it there.
const nodeModules = dirname(dirname(createRequire(import.meta.url).resolve("ajv/package.json")));

export { LoadError };

/** Where the reader lives in a checkout. */
export const ENTRY = join("packages", "core", "src", "tools", "shellBackgroundTools.ts");

/**
 * Bundles and imports the checkout's `shellBackgroundTools.ts`; returns its
 * `ReadBackgroundOutputTool`, the checkout's core version, and the entry's path.
 */
export async function loadCheckout(checkout) {
  const root = resolve(checkout);
  const entry = join(root, ENTRY);
  if (!existsSync(entry)) {
    throw new LoadError(`${root}: not a Gemini CLI checkout (no ${ENTRY})`);
  }
  const code = await bundleEntry(build, entry, { nodePaths: [nodeModules], plugins: [geminiResolve()] });
  const module = await importBundle(code, "bgtail-gemini-cli-", "shellBackgroundTools.mjs");
  if (typeof module.ReadBackgroundOutputTool !== "function") {
    throw new LoadError(`${entry}: it exports no ReadBackgroundOutputTool class`);
  }
  return { Tool: module.ReadBackgroundOutputTool, version: coreVersion(root), entry };
}

/** The stand-ins by the path an import names, and `./x.js` → `./x.ts` for the rest. */
function geminiResolve() {
  const standIns = [
    [/services\/shellExecutionService\.js$/, join(hostDir, "shellExecutionService.mjs"), true],
    [/utils\/debugLogger\.js$/, join(hostDir, "debugLogger.mjs"), false],
  ];
  return {
    name: "gemini-cli-resolve",
    setup(b) {
      b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
        const target = resolve(args.resolveDir, args.path);
        for (const [pattern, path, external] of standIns) {
          if (pattern.test(target)) {
            return external ? { path: pathToFileURL(path).href, external: true } : { path };
          }
        }
        const ts = target.replace(/\.js$/, ".ts");
        return existsSync(ts) ? { path: ts } : undefined;
      });
    },
  };
}

/** `packages/core/package.json`'s version, or "unknown". */
function coreVersion(root) {
  try {
    const pkg = JSON.parse(readFileSync(join(root, "packages", "core", "package.json"), "utf8"));
    return String(pkg.version ?? "unknown");
  } catch {
    return "unknown";
  }
}
