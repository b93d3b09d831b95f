import { describe, expect, it } from "vitest";
import { programFor } from "../../src/wasi/programs";
import { buildToolshedImports, decodeArgv, CHECK_ALLOWED, CHECK_DENIED } from "../../src/wasi/toolshed-imports";
import type { Denial } from "../../src/policy/denied";
import { run, withFs } from "./helpers";

describe("toolshed.check_command", () => {
  it.each([
    ["rm\0-rf\0/\0", ["rm", "-rf", "/"]],
    ["rm\0-rf\0/", ["rm", "-rf", "/"]],
    ["echo\0\0x\0", ["echo", "", "x"]],
    ["", []],
  ] as [string, string[]][])("decodes %j", (text, argv) => {
    expect(decodeArgv(new TextEncoder().encode(text))).toEqual(argv);
  });

  /** [argv bytes written at 16, length override, answer, denied rule] */
  const CALLS: [string, number | null, number, string | null][] = [
    ["rm\0-rf\0/workspace\0", null, CHECK_DENIED, "rm-root"],
    ["rm\0-f\0a.txt\0", null, CHECK_ALLOWED, null],
    ["", null, CHECK_DENIED, "malformed-command"],
    ["ls\0", 1 << 30, CHECK_DENIED, "malformed-command"],
  ];
  it.each(CALLS)("answers %j", (text, len, answer, rule) => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const bytes = new TextEncoder().encode(text);
    new Uint8Array(memory.buffer).set(bytes, 16);
    const denials: Denial[] = [];
    let said = "";
    const imports = buildToolshedImports(() => memory, { cwd: "/workspace", home: "/workspace", denied: (d) => denials.push(d), say: (t) => (said += t) });
    expect(imports.check_command!(16, len ?? bytes.length)).toBe(answer);
    expect(denials[0]?.rule ?? null).toBe(rule);
    if (rule) expect(said).toContain(`toolshed: denied (${rule})`);
    else expect(said).toBe("");
  });

  it("reports a refused in-process command as the run's denial", () =>
    withFs((fs, ws) => {
      ws.writeFile("/workspace/keep.txt", "k");
      const r = run(programFor("toolbox")!.module, fs, ["xargs", "rm", "-rf"], { stdin: "/workspace\n" });
      expect(r.exitCode).toBe(126);
      expect(r.denied?.rule).toBe("rm-root");
      expect(r.err).toContain("toolshed: denied (rm-root)");
      expect(ws.stat("/workspace/keep.txt")).toBeTruthy();
    }));
});
