// fc: list (-l) or re-run (-s) history entries. There is no editor in a tool run, so
// the edit-and-run form needs `-e -` / -s; anything else is refused with a clear error.
import type { Fd, Shell } from "../interp/shell";
import { berr, out } from "./io";
import { historyList } from "./history";

/** History number for a fc operand: N, -N (relative to the current command) or a prefix. */
function resolve(spec: string, lines: readonly string[], base: number, current: number): number | null {
  if (/^-?\d+$/.test(spec)) {
    const n = Number(spec);
    return n < 0 ? current + n : n === 0 ? current - 1 : n;
  }
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i].startsWith(spec)) return base + i;
  return null;
}

export async function fc(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let list = false,
    numbers = true,
    reverse = false,
    rerun = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      i++;
      break;
    }
    if (!/^-[lnrse]+$/.test(a)) break;
    for (const c of a.slice(1)) {
      if (c === "l") list = true;
      else if (c === "n") numbers = false;
      else if (c === "r") reverse = true;
      else if (c === "s") rerun = true;
      else if (c === "e") {
        const ed = argv[++i];
        if (ed === "-") rerun = true;
        else {
          await berr(sh, fds, "fc", "no editor is available; use fc -s to re-run a command");
          return 1;
        }
      }
    }
  }
  const { lines, base } = historyList(sh);
  // an interactive shell has already recorded this fc command; it is not listed or re-run
  const recording = sh.builtinState.get("interactive") === true && sh.opts.history;
  const visible = recording ? lines.slice(0, -1) : lines;
  const current = base + visible.length;
  const ops = argv.slice(i);
  if (rerun) {
    const subs = ops.filter((o) => o.includes("="));
    const which = ops.find((o) => !o.includes("="));
    const n = which === undefined ? current - 1 : resolve(which, visible, base, current);
    const cmd = n === null ? undefined : visible[n - base];
    if (cmd === undefined) {
      await berr(sh, fds, "fc", "no command found");
      return 1;
    }
    let text = cmd;
    for (const s of subs) {
      const k = s.indexOf("=");
      text = text.replace(s.slice(0, k), s.slice(k + 1));
    }
    await out(fds, text + "\n");
    return sh.evalString(text, fds, "fc");
  }
  if (!list) {
    await berr(sh, fds, "fc", "no editor is available; use fc -l to list or fc -s to re-run");
    return 1;
  }
  if (!visible.length) return 0;
  let first = ops[0] !== undefined ? resolve(ops[0], visible, base, current) : Math.max(base, current - 16);
  let last = ops[1] !== undefined ? resolve(ops[1], visible, base, current) : ops[0] !== undefined ? current - 1 : current - 1;
  if (first === null || last === null) {
    await berr(sh, fds, "fc", "history specification out of range");
    return 1;
  }
  const clamp = (n: number) => Math.min(Math.max(n, base), current - 1);
  first = clamp(first);
  last = clamp(last);
  if (first > last) {
    [first, last] = [last, first];
    reverse = true;
  }
  const nums: number[] = [];
  for (let n = first; n <= last; n++) nums.push(n);
  if (reverse) nums.reverse();
  await out(fds, nums.map((n) => `${numbers ? n : ""}\t ${visible[n - base]}\n`).join(""));
  return 0;
}
