// Stands in for Gemini CLI's `packages/core/src/utils/debugLogger.ts` (not among the files the
// reader needs): the schema validator logs unknown formats through it. Messages go to stderr,
// which bgtail's harness passes through prefixed with `[engine] `.

const write = (level) => (...args) => process.stderr.write(`gemini ${level}: ${args.join(" ")}\n`);

export const debugLogger = {
  log: write("log"),
  debug() {},
  warn: write("warn"),
  error: write("error"),
};
