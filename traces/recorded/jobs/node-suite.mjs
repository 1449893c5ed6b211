// Writes a node:test suite of 990 tests in 33 files' worth of describe blocks, one of which
// fails; run it with `node --test --test-reporter=spec <this dir>/generated.test.mjs`.
import { writeFileSync } from "node:fs";
let src = 'import { describe, it } from "node:test";\nimport assert from "node:assert/strict";\n';
for (let s = 1; s <= 33; s++) {
  src += `describe("suite ${String(s).padStart(2, "0")}", () => {\n`;
  for (let t = 1; t <= 30; t++) {
    const failing = s === 29 && t === 17;
    src += `  it("case ${t}: ${failing ? "parses the downstream marker" : "returns the expected value"}", () => { assert.equal(${failing ? '"upstream"' : t}, ${failing ? '"DIAGNOSTIC_MARKER_DOWNSTREAM"' : t}); });\n`;
  }
  src += "});\n";
}
writeFileSync(new URL("./generated.test.mjs", import.meta.url), src);
