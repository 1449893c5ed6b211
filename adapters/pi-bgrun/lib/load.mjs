// Loads a pi-bgrun checkout's real `bgtail` tool: its `extension/index.ts` is bundled with
// esbuild (type stripping and bundling only; nothing of upstream's logic is rewritten), the host
// packages it imports are replaced by the stand-ins in ../host, and each call of
// `newInstance()` runs the extension's factory once more, which is what a fresh pi session is:
// a fresh bookmark map.
//
// Shared by every mode of main.mjs (the oracle, and the engine-under-test protocol), so that
// they all drive the same code in the same way.

import { build } from "esbuild";
import { existsSync, mkdtempSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LoadError, bundleEntry, importBundle } from "../../common/bundle.mjs";


const here = dirname(fileURLToPath(import.meta.url));
const hostDir = join(here, "..", "host");

export { LoadError };

/**
 * Bundles and imports `<checkout>/extension/index.ts`; returns its extension factory and where
 * it came from. The bundle is written to a temporary folder, imported, then removed.
 */
export async function loadCheckout(checkout) {
  const root = resolve(checkout);
  const entry = join(root, "extension", "index.ts");
  if (!existsSync(entry)) {
    throw new LoadError(`${root}: not a pi-bgrun checkout (no extension/index.ts)`);
  }
  const siblingPresets = join(root, "extension", "digestPresets.ts");
  const alias = {
    "@earendil-works/pi-coding-agent": join(hostDir, "pi-coding-agent.mjs"),
    "@earendil-works/pi-tui": join(hostDir, "pi-tui.mjs"),
    typebox: join(hostDir, "typebox.mjs"),
  };
  const plugins = existsSync(siblingPresets) ? [] : [presetsStandIn()];
  const code = await bundleEntry(build, entry, { alias, plugins });
  const module = await importBundle(code, "bgtail-pi-bgrun-", "extension.mjs");
  if (typeof module.default !== "function") {
    throw new LoadError(`${entry}: its default export is not an extension factory`);
  }
  return { factory: module.default, entry };
}

/** Resolves the sibling `./digestPresets.ts` to the stand-in when the checkout has none. */
function presetsStandIn() {
  return {
    name: "digest-presets-stand-in",
    setup(b) {
      b.onResolve({ filter: /^\.\/digestPresets(\.ts)?$/ }, () => ({
        path: join(hostDir, "digestPresets.mjs"),
      }));
    },
  };
}

/** Makes an empty folder under the system's temporary directory. */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(dir, { recursive: true });
  return dir;
}
