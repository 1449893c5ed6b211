#!/usr/bin/env node
// The exact engine behind bgtail's engine-under-test protocol, on stdin and stdout:
//   node serve.mjs [--limits default|model]
// `--limits model` takes the bgtail model checker's tiny limits, so that
// `bgtail check --engine "cmd:node packages/bgtail-exact/serve.mjs --limits model"` checks the
// same model as the Rust engine's in-process check.

import { readFileSync } from "node:fs";

const usage = "usage: node serve.mjs [--limits default|model]";
const args = process.argv.slice(2);
let preset = "default";
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--help" || args[i] === "-h") {
    console.log(usage);
    process.exit(0);
  } else if (args[i] === "--limits" && (args[i + 1] === "default" || args[i + 1] === "model")) {
    preset = args[++i];
  } else {
    console.error(`bgtail-exact serve: unexpected argument ${JSON.stringify(args[i])}\n${usage}`);
    process.exit(2);
  }
}

let lib;
try {
  lib = await import("./dist/index.js");
} catch (e) {
  console.error(`bgtail-exact serve: the package is not built (${e.message}); run \`npm ci\` in ${new URL(".", import.meta.url).pathname} (in bgtail's repository: at its root)`);
  process.exit(2);
}
const { serve } = await import("./dist/serve.js");
const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
await serve({ limits: preset === "model" ? lib.modelLimits() : lib.defaultLimits(), version });
