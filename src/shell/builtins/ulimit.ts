// ulimit: per-shell resource limits, recorded as shell state (soft and hard values).
// The real limits on a run are the interpreter's budgets (steps, output, depth), which
// ulimit cannot loosen; these values are bookkeeping that scripts can read back, with the
// rules an unprivileged process gets: soft <= hard, and a hard limit can only be lowered.
import type { Fd, Shell } from "../interp/shell";
import { berr, out } from "./io";

interface Res {
  flag: string;
  desc: string;
  unit: string;
  scale: bigint;
  soft: bigint | null;
  hard: bigint | null;
}
// null = unlimited. Defaults resemble a typical Linux login (open files 1024, stack 8 MiB).
const RESOURCES: Res[] = [
  { flag: "c", desc: "core file size", unit: "blocks", scale: 512n, soft: 0n, hard: null },
  { flag: "d", desc: "data seg size", unit: "kbytes", scale: 1024n, soft: null, hard: null },
  { flag: "e", desc: "scheduling priority", unit: "", scale: 1n, soft: 0n, hard: 0n },
  { flag: "f", desc: "file size", unit: "blocks", scale: 512n, soft: null, hard: null },
  { flag: "i", desc: "pending signals", unit: "", scale: 1n, soft: 63432n, hard: 63432n },
  { flag: "l", desc: "max locked memory", unit: "kbytes", scale: 1024n, soft: 8192n * 1024n, hard: 8192n * 1024n },
  { flag: "m", desc: "max memory size", unit: "kbytes", scale: 1024n, soft: null, hard: null },
  { flag: "n", desc: "open files", unit: "", scale: 1n, soft: 1024n, hard: 1048576n },
  { flag: "p", desc: "pipe size", unit: "512 bytes", scale: 512n, soft: 4096n, hard: 4096n },
  { flag: "q", desc: "POSIX message queues", unit: "bytes", scale: 1n, soft: 819200n, hard: 819200n },
  { flag: "r", desc: "real-time priority", unit: "", scale: 1n, soft: 0n, hard: 0n },
  { flag: "s", desc: "stack size", unit: "kbytes", scale: 1024n, soft: 8192n * 1024n, hard: null },
  { flag: "t", desc: "cpu time", unit: "seconds", scale: 1n, soft: null, hard: null },
  { flag: "u", desc: "max user processes", unit: "", scale: 1n, soft: 63432n, hard: 63432n },
  { flag: "v", desc: "virtual memory", unit: "kbytes", scale: 1024n, soft: null, hard: null },
  { flag: "x", desc: "file locks", unit: "", scale: 1n, soft: null, hard: null },
];
const MAX = (1n << 63n) - 1n;

type Limits = Record<string, [bigint | null, bigint | null]>;
function limits(sh: Shell): Limits {
  const l = sh.builtinState.get("ulimit") as Limits | undefined;
  return l ?? Object.fromEntries(RESOURCES.map((r) => [r.flag, [r.soft, r.hard]]));
}

const show = (v: bigint | null, r: Res) => (v === null ? "unlimited" : String(v / r.scale));

export async function ulimit(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let soft = false,
    hard = false,
    all = false;
  const flags: string[] = [];
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      i++;
      break;
    }
    if (!/^-[A-Za-z]+$/.test(a)) break;
    for (const c of a.slice(1)) {
      if (c === "S") soft = true;
      else if (c === "H") hard = true;
      else if (c === "a") all = true;
      else if (RESOURCES.some((r) => r.flag === c)) flags.push(c);
      else {
        await berr(sh, fds, "ulimit", `-${c}: invalid option`);
        await sh.err(fds, "ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]");
        return 2;
      }
    }
  }
  const lim = limits(sh);
  const value = argv[i];
  if (all) {
    for (const r of RESOURCES) {
      const unit = r.unit ? `(${r.unit}, -${r.flag})` : `(-${r.flag})`;
      await out(fds, `${(r.desc + " " + unit).padEnd(32)} ${show(lim[r.flag][hard && !soft ? 1 : 0], r)}\n`);
    }
    return 0;
  }
  if (!flags.length) flags.push("f");
  if (value === undefined) {
    for (const f of flags) {
      const r = RESOURCES.find((x) => x.flag === f)!;
      const v = lim[f][hard && !soft ? 1 : 0];
      await out(fds, (flags.length > 1 ? `${r.desc} ${r.unit ? `(${r.unit}, -${f})` : `(-${f})`} `.padEnd(33) : "") + show(v, r) + "\n");
    }
    return 0;
  }
  // bash sets the limit for the last resource flag given
  const f = flags[flags.length - 1];
  const r = RESOURCES.find((x) => x.flag === f)!;
  let n: bigint | null;
  if (value === "unlimited") n = null;
  else if (value === "hard" || value === "soft") n = lim[f][value === "hard" ? 1 : 0];
  else if (/^\d+$/.test(value)) {
    n = BigInt(value) * r.scale;
    if (n > MAX) {
      await berr(sh, fds, "ulimit", `${value}: limit out of range`);
      return 1;
    }
  } else {
    await berr(sh, fds, "ulimit", `${value}: invalid number`);
    return 1;
  }
  const [curSoft, curHard] = lim[f];
  const le = (a: bigint | null, b: bigint | null) => b === null || (a !== null && a <= b);
  const setSoft = soft || !hard,
    setHard = hard || !soft;
  const newHard = setHard ? n : curHard;
  const newSoft = setSoft ? n : curSoft;
  if ((setHard && !le(newHard, curHard)) || (setSoft && !le(newSoft, newHard))) {
    await berr(sh, fds, "ulimit", `${r.desc}: cannot modify limit: Operation not permitted`);
    return 1;
  }
  sh.builtinState.set("ulimit", { ...lim, [f]: [newSoft, newHard] });
  return 0;
}
