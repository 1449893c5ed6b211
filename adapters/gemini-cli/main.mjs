#!/usr/bin/env node
// bgtail's adapter for a Gemini CLI checkout: runs that checkout's own
// `read_background_output` under node, behind bgtail's engine-under-test protocol.
//
//   node main.mjs CHECKOUT
//       speak bgtail-eut v1 on stdin/stdout, so that
//       `bgtail replay|check --engine "cmd:node adapters/gemini-cli/main.mjs CHECKOUT"` drive it.
//
// Errors name the input and the place, and exit with status 2 (../common/main.mjs).

import { runAdapter } from "../common/main.mjs";

runAdapter({
  folder: "gemini-cli",
  usage: `usage: node main.mjs CHECKOUT
  CHECKOUT  a Gemini CLI checkout (its packages/core/src/tools/shellBackgroundTools.ts is loaded)`,
  importLib: async () => ({ ...(await import("./lib/load.mjs")), ...(await import("./lib/protocol.mjs")) }),
  serveLoaded: (lib, loaded) => lib.serve(loaded.Tool, loaded.version),
});
