// Directory stack: pushd, popd, dirs. Entry 0 is always the current directory ($PWD);
// Shell.dirStack holds entries 1..n.
import type { Fd, Shell } from "../interp/shell";
import { berr, out } from "./io";
import { cd } from "./flow";

function stack(sh: Shell): string[] {
  return [sh.vars.get("PWD") || sh.cwd, ...sh.dirStack];
}

function tilde(sh: Shell, d: string): string {
  const home = sh.vars.get("HOME");
  if (!home || home === "/") return d;
  if (d === home) return "~";
  return d.startsWith(home + "/") ? "~" + d.slice(home.length) : d;
}

async function usage(sh: Shell, fds: Fd[], name: string, bad: string): Promise<number> {
  await berr(sh, fds, name, `${bad}: invalid option`);
  const u: Record<string, string> = { pushd: "pushd [-n] [+N | -N | dir]", popd: "popd [-n] [+N | -N]", dirs: "dirs [-clpv] [+N] [-N]" };
  await sh.err(fds, `${name}: usage: ${u[name]}`);
  return 2;
}

/** Index into the stack for +N / -N, or null when out of range. */
function indexOf(spec: string, len: number): number | null {
  const n = Number(spec.slice(1));
  const k = spec[0] === "+" ? n : len - 1 - n;
  return k >= 0 && k < len ? k : null;
}

async function show(sh: Shell, fds: Fd[]): Promise<void> {
  await out(
    fds,
    stack(sh)
      .map((d) => tilde(sh, d))
      .join(" ") + "\n",
  );
}

/** Makes `list` the stack, changing directory to its first entry unless noCd. */
async function setStack(sh: Shell, fds: Fd[], list: string[], noCd: boolean, name: string): Promise<number> {
  // with -n only the stack changes; entry 0 stays the current directory
  if (noCd) {
    sh.dirStack = list.slice(1);
    return 0;
  }
  const st = await berrFree(sh, fds, list[0], name);
  if (st) return st;
  sh.dirStack = list.slice(1);
  return 0;
}

async function berrFree(sh: Shell, fds: Fd[], dir: string, _name: string): Promise<number> {
  return cd(sh, ["cd", dir], fds);
}

function parseOpts(argv: string[]): { noCd: boolean; args: string[]; bad?: string } {
  let noCd = false;
  const args: string[] = [];
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      i++;
      break;
    }
    if (a === "-n") {
      noCd = true;
      continue;
    }
    if (/^[-+]\d+$/.test(a) || a === "-" || !a.startsWith("-")) break;
    return { noCd, args, bad: a };
  }
  args.push(...argv.slice(i));
  return { noCd, args };
}

export async function pushd(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const o = parseOpts(argv);
  if (o.bad) return usage(sh, fds, "pushd", o.bad);
  if (o.args.length > 1) {
    await berr(sh, fds, "pushd", "too many arguments");
    return 1;
  }
  const cur = stack(sh);
  const arg = o.args[0];
  let next: string[];
  if (arg === undefined) {
    if (cur.length < 2) {
      await berr(sh, fds, "pushd", "no other directory");
      return 1;
    }
    next = [cur[1], cur[0], ...cur.slice(2)];
  } else if (/^[-+]\d+$/.test(arg)) {
    const k = indexOf(arg, cur.length);
    if (k === null) {
      await berr(sh, fds, "pushd", `${arg}: directory stack index out of range`);
      return 1;
    }
    next = [...cur.slice(k), ...cur.slice(0, k)];
  } else {
    if (o.noCd) {
      sh.dirStack = [arg, ...sh.dirStack];
      await show(sh, fds);
      return 0;
    }
    const st = await cd(sh, ["cd", arg], fds);
    if (st) return st;
    sh.dirStack = [cur[0], ...sh.dirStack];
    await show(sh, fds);
    return 0;
  }
  const st = await setStack(sh, fds, next, o.noCd, "pushd");
  if (st) return st;
  await show(sh, fds);
  return 0;
}

export async function popd(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const o = parseOpts(argv);
  if (o.bad) return usage(sh, fds, "popd", o.bad);
  const arg = o.args[0];
  if (o.args.length > 1) {
    await berr(sh, fds, "popd", "too many arguments");
    return 1;
  }
  if (arg !== undefined && !/^[-+]\d+$/.test(arg)) {
    await berr(sh, fds, "popd", `${arg}: invalid argument`);
    await sh.err(fds, "popd: usage: popd [-n] [+N | -N]");
    return 2;
  }
  const cur = stack(sh);
  if (cur.length < 2) {
    await berr(sh, fds, "popd", "directory stack empty");
    return 1;
  }
  const k = arg === undefined ? 0 : indexOf(arg, cur.length);
  if (k === null) {
    await berr(sh, fds, "popd", `${arg}: directory stack index out of range`);
    return 1;
  }
  const next = cur.filter((_, j) => j !== k);
  if (k === 0) {
    if (o.noCd) sh.dirStack = cur.slice(2);
    else {
      const st = await setStack(sh, fds, next, false, "popd");
      if (st) return st;
    }
  } else sh.dirStack = next.slice(1);
  await show(sh, fds);
  return 0;
}

export async function dirs(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let clear = false,
    long = false,
    perLine = false,
    numbered = false;
  let pick: string | undefined;
  for (const a of argv.slice(1)) {
    if (/^[-+]\d+$/.test(a)) {
      pick = a;
      continue;
    }
    if (/^-[clpv]+$/.test(a)) {
      clear ||= a.includes("c");
      long ||= a.includes("l");
      perLine ||= a.includes("p");
      numbered ||= a.includes("v");
      continue;
    }
    if (a.startsWith("-") && a !== "-") return usage(sh, fds, "dirs", a);
    await berr(sh, fds, "dirs", `${a}: invalid argument`);
    await sh.err(fds, "dirs: usage: dirs [-clpv] [+N] [-N]");
    return 1;
  }
  if (clear) {
    sh.dirStack = [];
    return 0;
  }
  const list = stack(sh).map((d) => (long ? d : tilde(sh, d)));
  if (pick !== undefined) {
    const k = indexOf(pick, list.length);
    if (k === null) {
      await berr(sh, fds, "dirs", `${pick}: directory stack index out of range`);
      return 1;
    }
    await out(fds, list[k] + "\n");
    return 0;
  }
  if (numbered) await out(fds, list.map((d, i) => `${String(i).padStart(2)}  ${d}\n`).join(""));
  else if (perLine) await out(fds, list.map((d) => d + "\n").join(""));
  else await out(fds, list.join(" ") + "\n");
  return 0;
}
