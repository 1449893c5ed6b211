#!/usr/bin/env node
// bgtail's adapter for a coder/mux checkout: runs that checkout's own background-process
// manager under node, read the way its `bash_output` tool reads, behind bgtail's
// engine-under-test protocol. mux is AGPL-3.0-only: it is loaded from the checkout at run time;
// nothing of it is copied into this project.
//
//   node main.mjs CHECKOUT
//       speak bgtail-eut v1 on stdin/stdout, so that
//       `bgtail replay|check --engine "cmd:node adapters/mux/main.mjs CHECKOUT"` drive it.
//
// Errors name the input and the place, and exit with status 2 (../common/main.mjs).

import { runAdapter } from "../common/main.mjs";

runAdapter({
  folder: "mux",
  usage: `usage: node main.mjs CHECKOUT
  CHECKOUT  a coder/mux checkout (its src/node/services/backgroundProcessManager.ts is loaded)`,
  importLib: async () => ({ ...(await import("./lib/load.mjs")), ...(await import("./lib/protocol.mjs")) }),
  serveLoaded: (lib, loaded) => lib.serve(loaded.Manager, loaded.version),
});
