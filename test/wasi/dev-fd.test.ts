import { describe, expect, it } from "vitest";
import { programFor } from "../../src/wasi/programs";
import { run, withFs } from "./helpers";

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
  [["ls", "/dev"], "", "null\nstderr\nstdin\nstdout\nzero\n", "", 0],
  [["cat", "/dev/nosuch"], "", "", "No such file or directory", 1],
  [["touch", "/dev/newfile"], "", "", "touch:", 1],
  [["rm", "/dev/null"], "", "", "rm:", 1],
];

describe("/dev inside WASI programs", () => {
  it.each(CASES)("%j", (argv, stdin, out, err, code) =>
    withFs((fs, ws) => {
      ws.writeFile("/workspace/hay.txt", "apple\n");
      const r = run(toolbox(), fs, ["toolbox", ...argv], { stdin });
      expect(r.out).toBe(out);
      if (err) expect(r.err).toContain(err);
      else expect(r.err).toBe("");
      expect(r.exitCode).toBe(code);
      // Nothing under /dev ever reaches the workspace.
      expect(ws.stat("/workspace/dev")).toBeFalsy();
    }),
  );
});
