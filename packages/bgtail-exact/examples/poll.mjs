// Polls a growing log the way an agent harness would: each read shows only what is new, and
// the bookmarks are plain JSON that outlive the process.
//   node examples/poll.mjs            (after `npm ci`, or from an installed `bgtail-exact`)
import { mkdtempSync, appendFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExactEngine, emptyState, parseState, snapshotState } from "bgtail-exact";

const dir = mkdtempSync(join(tmpdir(), "bgtail-exact-example-"));
const job = { id: "build-1790000000-42", path: join(dir, "build.log") };
const engine = new ExactEngine();
let state = emptyState();

writeFileSync(job.path, "compiling a\ncompiling b\n");
console.log(engine.readFile(state, job, { lines: 40, running: true, peek: true }).text);

appendFileSync(job.path, "compiling c\nerror: b failed\n");
// Saved and restored between two tool calls, as a harness keeps it.
state = parseState(JSON.parse(JSON.stringify(snapshotState(state))));
const reply = engine.readFile(state, job, { lines: 40, running: true, peek: true });
console.log("---");
console.log(reply.text);
console.log("---");
console.log(JSON.stringify({ kind: reply.kind, newLines: reply.counts.newLines, shown: reply.shown.length }));
rmSync(dir, { recursive: true, force: true });
