// The end-to-end scripts' checks: one line per check, and the closing
// "e2e: N passed, M failed" line that scripts/test.mjs reads.
let passed = 0;
let failed = 0;

export function check(name, ok, detail = "") {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok ? "" : ` ${detail}`}`);
}

export function finish() {
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
