// history: the builtin over the history list (the list itself is the runner's: ../interp/history).
// Runs are never interactive, so commands are not recorded automatically (as with
// `bash -c`); the list holds what -r/-n/-s put there, and -a/-w/-r/-n work on $HISTFILE.
import { histFile, readLines, save, state, writeLines } from "../interp/history";
import type { Fd, Shell } from "../interp/shell";
import { berr, out } from "./io";

export { historyList } from "../interp/history";

export async function history(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let h = state(sh);
  const args = argv.slice(1);
  if (args[0] === "--") args.shift();
  const opt = args[0]?.startsWith("-") && !/^-\d+$/.test(args[0]) ? args.shift()! : "";
  const fileOp = async (fn: (file: string) => Promise<number> | number) => {
    const file = args[0] ?? histFile(sh);
    if (file === undefined) return 1;
    return fn(file);
  };
  switch (opt) {
    case "": {
      if (args.length > 1) {
        await berr(sh, fds, "history", "too many arguments");
        return 1;
      }
      save(sh, h);
      h = state(sh);
      let n = h.lines.length;
      if (args[0] !== undefined) {
        if (!/^\d+$/.test(args[0])) {
          await berr(sh, fds, "history", `${args[0]}: numeric argument required`);
          return 1;
        }
        n = Math.min(n, Number(args[0]));
      }
      const start = h.lines.length - n;
      let s = "";
      for (let i = start; i < h.lines.length; i++) s += `${String(h.base + i).padStart(5)}  ${h.lines[i]}\n`;
      await out(fds, s);
      return 0;
    }
    case "-c":
      save(sh, { ...h, lines: [], base: 1, appended: 0 });
      return 0;
    case "-d": {
      const spec = args[0];
      if (spec === undefined) {
        await berr(sh, fds, "history", "-d: option requires an argument");
        return 2;
      }
      if (!/^-?\d+$/.test(spec)) {
        await berr(sh, fds, "history", `${spec}: numeric argument required`);
        return 1;
      }
      let k = Number(spec);
      k = k < 0 ? h.lines.length + k : k - h.base;
      if (k < 0 || k >= h.lines.length) {
        await berr(sh, fds, "history", `${spec}: history position out of range`);
        return 1;
      }
      const lines = h.lines.filter((_, i) => i !== k);
      save(sh, { ...h, lines, appended: Math.min(h.appended, lines.length) });
      return 0;
    }
    case "-s":
      save(sh, { ...h, lines: [...h.lines, args.join(" ")] });
      return 0;
    case "-p":
      await out(fds, args.map((a) => a + "\n").join(""));
      return 0;
    case "-a":
      return fileOp((file) => {
        if (!writeLines(sh, file, h.lines.slice(h.appended), true)) return 1;
        save(sh, { ...h, appended: h.lines.length });
        return 0;
      });
    case "-w":
      return fileOp((file) => {
        if (!writeLines(sh, file, h.lines, false)) return 1;
        save(sh, { ...h, appended: h.lines.length });
        return 0;
      });
    case "-r":
    case "-n":
      return fileOp((file) => {
        const lines = readLines(sh, file);
        if (lines === null) return 1;
        const fresh = lines.slice(opt === "-n" ? h.fileLines : 0);
        save(sh, { ...h, lines: [...h.lines, ...fresh], fileLines: lines.length });
        return 0;
      });
    default:
      await berr(sh, fds, "history", `${opt}: invalid option`);
      await sh.err(fds, "history: usage: history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]");
      return 2;
  }
}
