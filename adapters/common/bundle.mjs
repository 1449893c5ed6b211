// What every adapter's loader does with a checkout's entry file: bundle it with esbuild (the
// adapter's own pinned copy, passed in: this folder has no dependencies) into memory, import the
// bundle from a temporary folder that is removed once imported, and name the place esbuild
// stopped at when it cannot bundle.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** A checkout that cannot be loaded: names the path and what is wrong with it. */
export class LoadError extends Error {}

/**
 * Bundles `entry` with `build` (esbuild's) and `options` (plugins, alias, nodePaths, …) as an
 * ES module for node 20; the bundle's code, or a LoadError at esbuild's first error.
 */
export async function bundleEntry(build, entry, options = {}) {
  try {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      target: "node20",
      logLevel: "silent",
      ...options,
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

/** Imports `code` as `<temporary folder>/<name>`, the folder removed once imported. */
export async function importBundle(code, prefix, name) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const file = join(dir, name);
  writeFileSync(file, code);
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
