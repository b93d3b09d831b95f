// The pass/fail tally of an end-to-end script: one line per check, and the closing
// "e2e: N passed, M failed" line scripts/test.mjs reads.
export function checks() {
  const tally = { passed: 0, failed: 0 };
  const check = (name, ok, detail = "") => {
    if (ok) tally.passed++;
    else tally.failed++;
    console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok ? "" : ` ${detail}`}`);
  };
  const summary = () => console.log(`e2e: ${tally.passed} passed, ${tally.failed} failed`);
  return { check, summary, tally };
}
