// Joins the Rust and the TypeScript engines' read-cost figures (JSON lines from
// `impl/benches/read_cost.rs` with BGTAIL_BENCH_JSON, and from `bench/read_cost.mjs`) into one
// Markdown table of ratios. Exits 1 when the two logs of a row differ in size or the bytes the
// two file sources read differ: the byte counts are a claim of equality, not a timing.
//
//   node bench/join.mjs RUST.jsonl TS.jsonl
import { readFileSync } from "node:fs";

function rows(path) {
  const lines = readFileSync(path, "utf8").split("\n");
  return lines.flatMap((line, i) => {
    if (line.trim() === "") return [];
    try {
      return [JSON.parse(line)];
    } catch (e) {
      throw new Error(`${path}:${i + 1}: not JSON: ${e.message}`);
    }
  });
}

const key = (r) => `${r.mib}\u0000${r.lines}\u0000${r.scenario}`;

function main([rustPath, tsPath]) {
  if (rustPath === undefined || tsPath === undefined) throw new Error("usage: node bench/join.mjs RUST.jsonl TS.jsonl");
  const ts = new Map(rows(tsPath).map((r) => [key(r), r]));
  const problems = [];
  const out = [
    "| log | lines | scenario | Rust | TypeScript | TypeScript/Rust | Rust bytes read | TypeScript bytes read |",
    "|---|---|---|---|---|---|---|---|",
  ];
  let worst = 0;
  for (const r of rows(rustPath)) {
    const t = ts.get(key(r));
    const what = `${r.mib} MiB ${r.lines}, ${r.scenario}`;
    if (t === undefined) {
      problems.push(`${what}: no TypeScript figure`);
      continue;
    }
    if (t.size !== r.size) problems.push(`${what}: the logs differ (${r.size} B against ${t.size} B)`);
    if (r.kib !== undefined) {
      const extra = `${t.kib} KiB resident added (idle process ${t.idleKiB} KiB), ${t.retainedKiB} KiB heap held after GC`;
      out.push(`| ${r.mib} MiB | ${r.lines} | ${r.scenario} | ${r.kib} KiB heap | ${extra} | — | — | — |`);
      continue;
    }
    if (t.bytes !== r.bytes) problems.push(`${what}: bytes read differ (${r.bytes} against ${t.bytes})`);
    const ratio = t.ms / r.ms;
    worst = Math.max(worst, ratio);
    out.push(
      `| ${r.mib} MiB | ${r.lines} | ${r.scenario} | ${r.ms.toFixed(3)} ms | ${t.ms.toFixed(3)} ms | ${ratio.toFixed(2)} | ${r.bytes} | ${t.bytes} |`,
    );
  }
  out.push("", `largest TypeScript/Rust time ratio: ${worst.toFixed(2)}`);
  process.stdout.write(out.join("\n") + "\n");
  if (problems.length > 0) {
    process.stderr.write(problems.map((p) => `bench/join.mjs: ${p}`).join("\n") + "\n");
    process.exit(1);
  }
}

try {
  main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`bench/join.mjs: ${e.message}\n`);
  process.exit(2);
}
