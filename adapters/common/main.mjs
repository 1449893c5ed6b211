// The command line an adapter with one mode shares: `node main.mjs CHECKOUT` loads the
// checkout and serves it behind the protocol. Its modules are imported only once the arguments
// are good, so that missing packages are named with the `npm ci` that installs them. Errors
// name the input and exit with status 2.

/**
 * Runs the adapter in `adapters/<folder>/`: `usage` is its help; `importLib()` imports its
 * modules, among them `loadCheckout(path)`; `serveLoaded(lib, loaded)` serves what it loaded.
 */
export async function runAdapter({ folder, usage, importLib, serveLoaded }) {
  const fail = (message) => {
    process.stderr.write(`bgtail-adapter-${folder}: ${message}\n`);
    process.exit(2);
  };
  const args = process.argv.slice(2);
  if (args[0] === "--help" || args[0] === "-h") {
    process.stdout.write(usage + "\n");
    return;
  }
  if (args.length !== 1 || args[0].startsWith("--")) fail(`one checkout, and nothing else\n${usage}`);
  let lib;
  try {
    lib = await importLib();
  } catch (err) {
    if (err?.code !== "ERR_MODULE_NOT_FOUND") throw err;
    fail(`the adapter's packages are missing (${err.message.split("\n")[0]}): run \`npm ci\` at the repository's root`);
  }
  let loaded;
  try {
    loaded = await lib.loadCheckout(args[0]);
  } catch (err) {
    fail(err.message);
  }
  await serveLoaded(lib, loaded);
}
