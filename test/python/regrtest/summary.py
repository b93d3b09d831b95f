# Reads the JUnit XML that `python3 -m test --junit-xml FILE` writes and writes one JSON object
# (to the second argument, else to stdout):
# {"tests": {test id: [outcome, detail, seconds]}} with outcome ok, skipped, failure, error,
# expected-failure or unexpected-success, and detail the skip reason or the exception's last
# line. Run by Debian's python3.11 and by the session's python3 alike, so both sides are read
# the same way (test/python/regrtest.global.mjs, test/python/regrtest.test.ts).
import json
import sys
import xml.etree.ElementTree as ET

OUTCOMES = {"skipped": "skipped", "failure": "failure", "error": "error", "output": "expected-failure", "outcome": "unexpected-success"}


def detail(child):
    text = child.get("message") or child.text or ""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return (lines[-1] if lines else "")[:300]


tests = {}
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    outcome, why = "ok", ""
    for child in case:
        if child.tag in OUTCOMES:
            outcome, why = OUTCOMES[child.tag], detail(child)
            if outcome in ("failure", "error"):
                break
    # A subtest is recorded under its test's id followed by its parameters: "id (x=1)".
    name = case.get("name").split(" (", 1)[0]
    # A test that failed in several subtests is recorded once, by its worst outcome.
    if name not in tests or tests[name][0] == "ok":
        tests[name] = [outcome, why, round(float(case.get("time") or 0), 3)]
with open(sys.argv[2], "w") if len(sys.argv) > 2 else sys.stdout as out:
    json.dump({"tests": tests}, out, sort_keys=True)
    out.write("\n")
