import { describe, expect, it } from "vitest";
import { programFor } from "../../src/wasi/programs";
import { runWasi } from "../../src/wasi/runner";
import { withFs } from "./helpers";

const toolbox = () => programFor("toolbox")!.module;

/** [argv (toolbox command first), stdin, stdout, stderr (substring), exit] — the /dev preopen. */
const CASES: [string[], string, string, string, number][] = [
  [["cat", "/dev/null"], "", "", "", 0],
  [["grep", "-f", "/dev/null", "hay.txt"], "", "", "", 1],
  [["grep", "-v", "-f", "/dev/null", "hay.txt"], "", "apple\n", "", 0],
  [["cat", "/dev/stdin"], "from stdin\n", "from stdin\n", "", 0],
  [["cat", "hay.txt", "-", "/dev/stdin"], "s\n", "apple\ns\n", "", 0],
  [["tee", "/dev/stderr"], "both\n", "both\n", "both\n", 0],
  [["tee", "/dev/null"], "kept\n", "kept\n", "", 0],
  [["head", "-c", "4", "/dev/zero"], "", "\0\0\0\0", "", 0],
  [["ls", "/dev"], "", "fd\nnull\nrandom\nstderr\nstdin\nstdout\nurandom\nzero\n", "", 0],
  [["ls", "/dev/fd"], "", "0\n1\n2\n62\n63\n", "", 0],
  [["cat", "/dev/fd/63", "/dev/fd/0"], "in\n", "procsub\nin\n", "", 0],
  [["diff", "/dev/fd/63", "hay.txt"], "", "1c1\n< procsub\n---\n> apple\n", "", 1],
  [["wc", "-c", "/dev/fd/63"], "", "8 /dev/fd/63\n", "", 0],
  [["cat", "/dev/fd/61"], "", "", "No such file or directory", 1],
  [["cat", "/dev/fd/62"], "", "", "Permission denied", 1],
  [["tee", "/dev/fd/63"], "x\n", "x\n", "Permission denied", 1],
  [["cat", "/dev/nosuch"], "", "", "No such file or directory", 1],
  [["touch", "/dev/newfile"], "", "", "touch:", 1],
  [["rm", "/dev/null"], "", "", "rm:", 1],
];

describe("/dev inside WASI programs", () => {
  it.each(CASES)("%j", (argv, stdin, out, err, code) =>
    withFs((fs, ws) => {
      ws.writeFile("/workspace/hay.txt", "apple\n");
      const r0 = runWasi(toolbox(), {
        argv: ["toolbox", ...argv],
        env: {},
        cwd: "/workspace",
        fs,
        stdin: new TextEncoder().encode(stdin),
        fdFiles: { 63: new TextEncoder().encode("procsub\n") },
        fdSinks: [62],
      });
      const r = { ...r0, out: new TextDecoder().decode(r0.stdout), err: new TextDecoder().decode(r0.stderr) };
      expect(r.out).toBe(out);
      if (err) expect(r.err).toContain(err);
      else expect(r.err).toBe("");
      expect(r.exitCode).toBe(code);
      // Nothing under /dev ever reaches the workspace.
      expect(ws.stat("/workspace/dev")).toBeFalsy();
    }),
  );
});

it("collects what a program writes to a writable /dev/fd/N", () =>
  withFs((fs) => {
    const r = runWasi(toolbox(), {
      argv: ["tee", "/dev/fd/62", "/dev/fd/61"],
      env: {},
      cwd: "/workspace",
      fs,
      stdin: new TextEncoder().encode("x\n"),
      fdSinks: [61, 62],
    });
    expect(new TextDecoder().decode(r.stdout)).toBe("x\n");
    expect(Object.keys(r.fdOutputs ?? {})).toEqual(["61", "62"]);
    expect(new TextDecoder().decode(r.fdOutputs![62])).toBe("x\n");
    expect(r.exitCode).toBe(0);
  }));
