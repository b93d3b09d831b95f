// ps and nohup. Their subjects live in the interpreter, not in a WASI program: the session's
// "processes" are this shell and its background jobs (interpreter subshells with pids), and
// nohup must be able to run functions, builtins and scripts, which only the shell can.
import type { Fd, Shell } from "../interp/shell";
import { jobCommand } from "../interp/jobtable";
import { formatCommand } from "../syntax/print";
import { berr, out } from "./io";

/** The user every process here runs as (what `whoami`/`id` in the toolbox report). */
const USER = "agent";

interface Proc {
  pid: number;
  ppid: number;
  /** Program name (ps's default CMD column). */
  comm: string;
  /** Full command line (ps -f's CMD, aux's COMMAND). */
  args: string;
}

const PENDING = Symbol("pending");

/** True while a job's completion promise has not settled (no await on a running job). */
async function running(p: Promise<number>): Promise<boolean> {
  const v = await Promise.race([p, Promise.resolve(PENDING)]).catch(() => 0);
  return v === PENDING;
}

async function snapshot(sh: Shell, self: number): Promise<Proc[]> {
  const root = sh.rootPid || sh.pid;
  const procs: Proc[] = [{ pid: root, ppid: 0, comm: "bash", args: "bash" }];
  for (const [pid, p] of sh.shared.jobs) {
    if (!(await running(p))) continue;
    const cmd = jobCommand(sh.shared, pid);
    const text = cmd ? formatCommand(cmd) : "bash";
    procs.push({ pid, ppid: root, comm: text.split(/\s+/)[0] || "bash", args: text });
  }
  procs.push({ pid: self, ppid: root, comm: "ps", args: "ps" });
  return procs;
}

type Column = { head: string; width: number; left?: boolean; get: (p: Proc, t: string) => string };

const COLUMNS: Record<string, Column> = {
  pid: { head: "PID", width: 7, get: (p) => String(p.pid) },
  ppid: { head: "PPID", width: 7, get: (p) => String(p.ppid) },
  user: { head: "USER", width: 8, left: true, get: () => USER },
  uid: { head: "UID", width: 8, left: true, get: () => USER },
  tty: { head: "TTY", width: 8, left: true, get: () => "?" },
  tt: { head: "TT", width: 8, left: true, get: () => "?" },
  time: { head: "TIME", width: 8, get: () => "00:00:00" },
  etime: { head: "ELAPSED", width: 11, get: () => "00:00" },
  stat: { head: "STAT", width: 4, left: true, get: () => "S" },
  c: { head: "C", width: 2, get: () => "0" },
  stime: { head: "STIME", width: 5, left: true, get: (_p, t) => t },
  "%cpu": { head: "%CPU", width: 4, get: () => "0.0" },
  "%mem": { head: "%MEM", width: 4, get: () => "0.0" },
  comm: { head: "COMMAND", width: 0, left: true, get: (p) => p.comm },
  ucmd: { head: "CMD", width: 0, left: true, get: (p) => p.comm },
  args: { head: "COMMAND", width: 0, left: true, get: (p) => p.args },
  cmd: { head: "CMD", width: 0, left: true, get: (p) => p.args },
  command: { head: "COMMAND", width: 0, left: true, get: (p) => p.args },
};

const FORMATS: Record<string, string[]> = {
  default: ["pid", "tty", "time", "ucmd"],
  full: ["uid", "pid", "ppid", "c", "stime", "tty", "time", "cmd"],
  user: ["user", "pid", "%cpu", "%mem", "tty", "stat", "stime", "time", "command"],
};

const PS_HELP = `Usage: ps [options]
Shows this session's processes: the shell and its running background jobs (and ps itself).
There are no other processes in this sandbox.

  -e, -A, a, x     all processes (the same set here)
  -f               full format (UID PID PPID C STIME TTY TIME CMD)
  u, aux           user format
  -p, --pid LIST   only these pids
  -o, --format F   columns: ${Object.keys(COLUMNS).join(",")}
  --no-headers     no header line
`;

export async function ps(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const self = sh.shared.nextPid++;
  let format: { key: string; head: string }[] = [];
  const use = (keys: string[]) => {
    format = keys.map((key) => ({ key, head: COLUMNS[key].head }));
  };
  let pids: number[] | null = null;
  let headers = true;
  const bad = async (msg: string) => {
    await berr(sh, fds, "ps", `${msg}; supported here: -e -A -f -p PID -o FIELDS --no-headers, aux`);
    return 1;
  };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    const value = () => argv[++i];
    if (a === "--help") {
      await out(fds, PS_HELP);
      return 0;
    }
    if (a === "--no-headers" || a === "--no-heading") {
      headers = false;
      continue;
    }
    if (a === "-p" || a === "--pid" || a === "p") {
      const v = value();
      if (v === undefined || !/^\d+([, ]\d+)*$/.test(v)) return bad(`process ID list syntax error: ${v ?? "(missing)"}`);
      pids = [...(pids ?? []), ...v.split(/[, ]/).map(Number)];
      continue;
    }
    if (a === "-o" || a === "--format" || a === "o") {
      const v = value() ?? "";
      // pid,comm or pid= (an empty header); several -o add up.
      const cols = (v.includes("=") ? [v] : v.split(/[, ]/)).filter(Boolean).map((c) => {
        const eq = c.indexOf("=");
        const key = (eq < 0 ? c : c.slice(0, eq)).toLowerCase();
        return { key, head: eq < 0 ? (COLUMNS[key]?.head ?? "") : c.slice(eq + 1) };
      });
      const unknown = cols.find((c) => !COLUMNS[c.key]);
      if (!cols.length || unknown) return bad(`unknown format column '${unknown?.key ?? v}'`);
      format = [...format, ...cols];
      continue;
    }
    if (/^-[eAfaxlF]+$/.test(a)) {
      if (/[lF]/.test(a)) return bad(`option ${a} is not supported`);
      if (a.includes("f")) use(FORMATS.full);
      continue;
    }
    // BSD style: aux, ax, u, x ...
    if (/^[auxwe]+$/.test(a)) {
      if (a.includes("u")) use(FORMATS.user);
      continue;
    }
    return bad(`option ${a} is not supported`);
  }
  const d = new Date(sh.host.now());
  const t = `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
  const procs = (await snapshot(sh, self)).filter((p) => !pids || pids.includes(p.pid));
  const cell = (c: Column, s: string, last: boolean) => (last ? s : c.left ? s.padEnd(c.width) : s.padStart(c.width));
  if (!format.length) use(FORMATS.default);
  const line = (vals: (f: { key: string; head: string }) => string) =>
    format
      .map((f, i) => cell(COLUMNS[f.key], vals(f), i === format.length - 1))
      .join(" ")
      .trimEnd() + "\n";
  let text = headers && format.some((f) => f.head) ? line((f) => f.head) : "";
  for (const p of procs) text += line((f) => COLUMNS[f.key].get(p, t));
  await out(fds, text);
  return procs.length ? 0 : 1;
}

export async function nohup(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let i = 1;
  if (argv[i] === "--help") {
    await out(
      fds,
      "Usage: nohup COMMAND [ARG]...\nRun COMMAND. Nothing here hangs up a command, and output is never a terminal,\nso no nohup.out is written: redirect output yourself (nohup cmd > log 2>&1 &).\n",
    );
    return 0;
  }
  if (argv[i] === "--") i++;
  if (i >= argv.length) {
    await berr(sh, fds, "nohup", "missing operand\nTry 'nohup --help' for more information.");
    return 125;
  }
  return sh.invoke(argv.slice(i), fds);
}
