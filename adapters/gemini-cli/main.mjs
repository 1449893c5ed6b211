#!/usr/bin/env node
// bgtail's adapter for a Gemini CLI checkout: runs that checkout's own
// `read_background_output` under node, behind bgtail's engine-under-test protocol.
//
//   node main.mjs CHECKOUT
//       speak bgtail-eut v1 on stdin/stdout, so that
//       `bgtail replay|check --engine "cmd:node adapters/gemini-cli/main.mjs CHECKOUT"` drive it.
//
// Errors name the input and the place, and exit with status 2.


const USAGE = `usage: node main.mjs CHECKOUT
  CHECKOUT  a Gemini CLI checkout (its packages/core/src/tools/shellBackgroundTools.ts is loaded)`;

function fail(message) {
  process.stderr.write(`bgtail-adapter-gemini-cli: ${message}\n`);
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
    fail(`the adapter's packages are missing (${err.message.split("\n")[0]}): run \`npm ci --prefix adapters/gemini-cli\``);
  }
  let loaded;
  try {
    loaded = await loadCheckout(args[0]);
  } catch (err) {
    fail(err.message);
  }
  await serve(loaded.Tool, loaded.version);
}

main();
