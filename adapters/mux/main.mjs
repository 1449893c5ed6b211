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
// Errors name the input and the place, and exit with status 2.


const USAGE = `usage: node main.mjs CHECKOUT
  CHECKOUT  a coder/mux checkout (its src/node/services/backgroundProcessManager.ts is loaded)`;

function fail(message) {
  process.stderr.write(`bgtail-adapter-mux: ${message}\n`);
  process.exit(2);
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "--help" || args[0] === "-h") {
    process.stdout.write(USAGE + "\n");
    return;
  }
  if (args.length !== 1 || args[0].startsWith("--")) fail(`one checkout, and nothing else\n${USAGE}`);
  let loadCheckout, serve;
  try {
    ({ loadCheckout } = await import("./lib/load.mjs"));
    ({ serve } = await import("./lib/protocol.mjs"));
  } catch (err) {
    if (err?.code !== "ERR_MODULE_NOT_FOUND") throw err;
    fail(`the adapter's packages are missing (${err.message.split("\n")[0]}): run \`npm ci --prefix adapters/mux\``);
  }
  let loaded;
  try {
    loaded = await loadCheckout(args[0]);
  } catch (err) {
    fail(err.message);
  }
  await serve(loaded.Manager, loaded.version);
}

main();
