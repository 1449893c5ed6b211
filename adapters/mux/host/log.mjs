// Stands in for mux's `src/node/services/log.ts` (its real logger imports `chalk` and writes
// files under the user's home). The manager only logs through it: debug messages are dropped,
// warnings and errors go to stderr, which bgtail's harness passes through as `[engine] …`.

const write = (level) => (...args) => process.stderr.write(`mux ${level}: ${args.join(" ")}\n`);

function createLogger() {
  const logger = {
    info() {},
    debug() {},
    debug_obj() {},
    warn: write("warn"),
    error: write("error"),
    setLevel() {},
    getLevel: () => "error",
    isDebugMode: () => false,
    withFields: () => logger,
  };
  return logger;
}

export const log = createLogger();
