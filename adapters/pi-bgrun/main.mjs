#!/usr/bin/env node
// bgtail's adapter for a pi-bgrun checkout: runs that checkout's own `bgtail` under node.
//
//   node main.mjs CHECKOUT
//       speak bgtail's engine-under-test protocol (bgtail-eut v1) on stdin/stdout, so that
//       `bgtail replay|check|verify --engine "cmd:node main.mjs CHECKOUT"` drive the checkout.
//   node main.mjs CHECKOUT --oracle --out DIR TRACE|DIR...
//       fill every read's `expect` of each trace with the checkout's real reply; each trace is
//       written to DIR under its own file name (a directory argument is searched for .jsonl).
//   node main.mjs CHECKOUT --exact
//       the protocol, with the checkout's `bgtail` reading through bgtail's exact engine
//       (packages/bgtail-exact): upstream's tool, ids, job registry and error replies; the
//       engine's reading.
//
// Errors name the input and the place, and exit with status 2.

import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { loadCheckout } from "./lib/load.mjs";
import { fillTrace } from "./lib/oracle.mjs";
import { serve } from "./lib/protocol.mjs";
import { TraceError, traceFiles } from "../common/trace.mjs";

const USAGE = `usage: node main.mjs CHECKOUT [--exact]
       node main.mjs CHECKOUT --oracle --out DIR TRACE|DIR...
  CHECKOUT  a pi-bgrun checkout (its extension/index.ts is loaded)
  (alone)   speak bgtail's engine-under-test protocol on stdin/stdout
  --exact   the checkout's bgtail reads through bgtail's exact engine
            (packages/bgtail-exact, built by npm ci at the repository's root)
  --oracle  fill each trace's reads with the checkout's real replies
  --out DIR where the filled traces are written (the folder is created)`;

function fail(message) {
  process.stderr.write(`bgtail-adapter: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const args = { inputs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--oracle") args.oracle = true;
    else if (a === "--exact") args.exact = true;
    else if (a === "--out") args.out = argv[++i] ?? fail("--out needs a folder");
    else if (a === "--help" || a === "-h") {
      process.stdout.write(USAGE + "\n");
      process.exit(0);
    } else if (a.startsWith("--")) fail(`unknown option ${a}\n${USAGE}`);
    else if (args.checkout === undefined) args.checkout = a;
    else args.inputs.push(a);
  }
  if (args.checkout === undefined) fail(`no checkout given\n${USAGE}`);
  if (!args.oracle) {
    if (args.out || args.inputs.length > 0) fail(`traces and --out go with --oracle\n${USAGE}`);
    return args;
  }
  // The oracle records 0.7.1's own replies; the exact mode is judged by the contract instead.
  if (args.exact) fail(`--exact is for the protocol, not --oracle\n${USAGE}`);
  if (!args.out) fail(`--oracle needs --out DIR\n${USAGE}`);
  if (args.inputs.length === 0) fail(`no traces given\n${USAGE}`);
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let loaded;
  try {
    loaded = await loadCheckout(args.checkout, { exact: args.exact === true });
  } catch (err) {
    fail(err.message);
  }
  if (!args.oracle) return serve(loaded, args.checkout);
  mkdirSync(args.out, { recursive: true });
  let files;
  try {
    files = traceFiles(args.inputs);
  } catch (err) {
    fail(err.message);
  }
  let reads = 0;
  for (const file of files) {
    let filled;
    try {
      filled = await fillTrace(loaded.factory, file);
    } catch (err) {
      // A trace's own fault names the trace; anything else is the checkout's.
      fail(err instanceof TraceError ? err.message : `${loaded.entry}: ${err.stack ?? err}`);
    }
    reads += filled.split("\n").filter((l) => l.includes('"event":"read"')).length;
    writeFileSync(join(args.out, basename(file)), filled);
  }
  process.stderr.write(`bgtail-adapter: ${files.length} traces, ${reads} reads filled from ${loaded.entry}\n`);
}

main();
