// Loads a pi-bgrun checkout's real `bgtail` tool: its `extension/index.ts` is bundled with
// esbuild (type stripping and bundling only; nothing of upstream's logic is rewritten), the host
// packages it imports are replaced by the stand-ins in ../host, and each call of
// `newInstance()` runs the extension's factory once more, which is what a fresh pi session is:
// a fresh bookmark map.
//
// Shared by every mode of main.mjs (the oracle, and the engine-under-test protocol), so that
// they all drive the same code in the same way.
//
// With `exact`, the checkout's `bgtail` reads through bgtail's exact engine: the entry's
// `bgtailCore` is renamed and a `bgtailCore` of ours (./exact.mjs) takes its name, given the
// checkout's own functions. Everything else in the checkout is bundled as it is.

import { build } from "esbuild";
import { existsSync, mkdtempSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LoadError, bundleEntry, importBundle } from "../../common/bundle.mjs";


const here = dirname(fileURLToPath(import.meta.url));
const hostDir = join(here, "..", "host");
const exactBridge = join(here, "exact.mjs");
/** The package the exact mode reads through, as `npm ci` at the repository's root builds it. */
const exactPackage = join(here, "..", "..", "..", "packages", "bgtail-exact", "dist", "index.js");

export { LoadError };

/**
 * Bundles and imports `<checkout>/extension/index.ts`; returns its extension factory and where
 * it came from (and, with `exact`, the bundle's `harnessLink`). The bundle is written to a
 * temporary folder, imported, then removed.
 */
export async function loadCheckout(checkout, { exact = false } = {}) {
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
  if (exact) plugins.push(readThroughExact(entry));
  const code = await bundleEntry(build, entry, { alias, plugins });
  const module = await importBundle(code, "bgtail-pi-bgrun-", "extension.mjs");
  if (typeof module.default !== "function") {
    throw new LoadError(`${entry}: its default export is not an extension factory`);
  }
  return { factory: module.default, entry, harnessLink: module.__bgtailHarnessLink };
}

/** Where upstream declares the function that reads a job's log for `bgtail`. */
const CORE = "async function bgtailCore(";

/**
 * Routes the entry's `bgtailCore` through ./exact.mjs. The checkout's declaration is renamed
 * (kept, unused) and ours is declared in its place, in the same scope, so it reaches the
 * checkout's `jobs` map and helpers; ./exact.mjs is imported at the top and its `harnessLink`
 * re-exported for the adapter. Checked before bundling, so that what is
 * missing is named as itself.
 */
function readThroughExact(entry) {
  if (!existsSync(exactPackage)) {
    throw new LoadError(`${exactPackage}: the exact engine's package is not built: run \`npm ci\` at the repository's root`);
  }
  const source = readFileSync(entry, "utf8");
  const at = source.indexOf(CORE);
  if (at === -1 || source.indexOf(CORE, at + 1) !== -1) {
    throw new LoadError(`${entry}: cannot read through the exact engine: \`${CORE}\` is declared ${at === -1 ? "nowhere" : "more than once"}`);
  }
  const contents = routed(source, at);
  return {
    name: "bgtail-exact-reading",
    setup(b) {
      b.onLoad({ filter: /\/extension\/index\.ts$/ }, (args) =>
        args.path === entry ? { contents, loader: "ts" } : undefined,
      );
    },
  };
}

/** The entry's source with our `bgtailCore` declared where upstream's was, at `at`. */
function routed(source, at) {
  const head = [
    `import { exactBgtailCore as __exactBgtailCore, harnessLink as __bgtailHarnessLink } from ${JSON.stringify(exactBridge)};`,
    `export { __bgtailHarnessLink };`,
    "",
  ].join("\n");
  const ours = [
    "const __bgtailExactCore = __exactBgtailCore({",
    "    resolveLogForJob, logReadError, supportsNativeJobSnapshot, readWindowMax,",
    "    jobRecord: (id: string) => jobs.get(id),",
    "  });",
    "  async function bgtailCore(params: any, ctx?: any): Promise<any> { return __bgtailExactCore(params, ctx); }",
    "  async function bgtailCore_upstream(",
  ].join("\n");
  return head + source.slice(0, at) + ours + source.slice(at + CORE.length);
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
