import { describe, expect, it } from "vitest";
import { DEFAULT_RETENTION, parseRetention } from "../../src/checkpoints/retention";

describe("TOOLSHED_CHECKPOINTS", () => {
  it.each([
    [undefined, DEFAULT_RETENTION],
    ["", DEFAULT_RETENTION],
    ["off", { ...DEFAULT_RETENTION, auto: false }],
    ["calls=10", { ...DEFAULT_RETENTION, calls: 10 }],
    ["calls=5, hours=0 ,bytes=1000", { ...DEFAULT_RETENTION, calls: 5, hours: 0, maxHistoryBytes: 1000 }],
  ])("reads %j", (text, rule) => {
    expect(parseRetention(text)).toEqual(rule);
  });

  it.each(["calls", "calls=-1", "days=3", "calls=1;hours=2", "bytes=1e9"])("refuses %j with a sentence saying how to write it", (text) => {
    const r = parseRetention(text);
    expect("error" in r && r.error).toMatch(/TOOLSHED_CHECKPOINTS: cannot read .*calls=50,hours=24/);
  });
});
