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
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const hostDir = join(here, "..", "host");
const nodeModules = join(here, "..", "node_modules");

/** A checkout that cannot be loaded: names the path and what is wrong with it. */
export class LoadError extends Error {}

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
  const code = await bundle(entry);
  const dir = mkdtempSync(join(tmpdir(), "bgtail-gemini-cli-"));
  const file = join(dir, "shellBackgroundTools.mjs");
  writeFileSync(file, code);
  let module;
  try {
    module = await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (typeof module.ReadBackgroundOutputTool !== "function") {
    throw new LoadError(`${entry}: it exports no ReadBackgroundOutputTool class`);
  }
  return { Tool: module.ReadBackgroundOutputTool, version: coreVersion(root), entry };
}

/** The bundle's code, or a LoadError at the first place esbuild stopped. */
async function bundle(entry) {
  try {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      target: "node20",
      nodePaths: [nodeModules],
      plugins: [geminiResolve()],
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
