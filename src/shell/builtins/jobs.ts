// Job control without processes: kill, jobs, and job-spec aware wait.
// Background jobs are interpreter subshells (RunShared.jobs: pid -> completion promise);
// there are no OS processes, so "signalling" a job means it is reported as killed: its
// entry's status becomes 128+signal for `wait`, and the rest of its output is not awaited.
// Job numbers are positions in the job table, oldest first (%1, %2 ...); %% / %+ is the
// newest, %- the one before it.
import type { Fd, Shell } from "../interp/shell";
import { ExitSig } from "../interp/shell";
import { berr, out, skipDashDash } from "./io";
import { wait as waitPids } from "./flow";
import { signalName, signalNumber, signalTable } from "./signals";
import { jobCommand } from "../interp/jobtable";
import { formatCommand } from "../syntax/print";

/** Resolves a job spec (%N, %%, %+, %-, %string, %?string) or pid to a job pid. */
function jobPid(sh: Shell, spec: string, cmdOf?: (pid: number) => string | undefined): number | null {
  const pids = [...sh.shared.jobs.keys()];
  if (!spec.startsWith("%")) {
    const n = /^\d+$/.test(spec) ? Number(spec) : NaN;
    return pids.includes(n) ? n : null;
  }
  const s = spec.slice(1);
  if (s === "" || s === "%" || s === "+") return pids.length ? pids[pids.length - 1] : null;
  if (s === "-") return pids.length > 1 ? pids[pids.length - 2] : pids.length ? pids[0] : null;
  if (/^\d+$/.test(s)) return pids[Number(s) - 1] ?? null;
  if (cmdOf) {
    const sub = s.startsWith("?");
    const needle = sub ? s.slice(1) : s;
    const hit = pids.filter((p) => {
      const c = cmdOf(p) ?? "";
      return sub ? c.includes(needle) : c.startsWith(needle);
    });
    if (hit.length === 1) return hit[0];
  }
  return null;
}

const ABANDONED = new WeakSet<Promise<number>>();

function jobText(sh: Shell, pid: number): string {
  const c = jobCommand(sh.shared, pid);
  return c ? formatCommand(c) : "";
}
/** Signal that ended a killed job, per run (pids restart in every run), for wait's report. */
const KILLED = new WeakMap<object, Map<number, number>>();
function killedBy(sh: Shell): Map<number, number> {
  let m = KILLED.get(sh.shared);
  if (!m) {
    m = new Map();
    KILLED.set(sh.shared, m);
  }
  return m;
}

// strsignal() texts bash prints when a waited-for job died of a signal (INT and PIPE are silent)
const SIG_TEXT: Record<number, string> = {
  1: "Hangup",
  3: "Quit",
  4: "Illegal instruction",
  5: "Trace/breakpoint trap",
  6: "Aborted",
  7: "Bus error",
  8: "Floating point exception",
  9: "Killed",
  10: "User defined signal 1",
  11: "Segmentation fault",
  12: "User defined signal 2",
  14: "Alarm clock",
  15: "Terminated",
  24: "CPU time limit exceeded",
  25: "File size limit exceeded",
  26: "Virtual timer expired",
  27: "Profiling timer expired",
  31: "Bad system call",
};

async function listSignals(sh: Shell, args: string[], fds: Fd[]): Promise<number> {
  if (!args.length) {
    await out(fds, signalTable());
    return 0;
  }
  let st = 0;
  for (const a of args) {
    if (/^\d+$/.test(a)) {
      let n = Number(a);
      if (n > 128) n -= 128; // an exit status of a signalled process
      const name = signalName(n);
      if (name === null) {
        await berr(sh, fds, "kill", `${a}: invalid signal specification`);
        st = 1;
        continue;
      }
      await out(fds, name + "\n");
    } else {
      const n = signalNumber(a);
      if (n === null || /^\d/.test(a)) {
        await berr(sh, fds, "kill", `${a}: invalid signal specification`);
        st = 1;
        continue;
      }
      await out(fds, n + "\n");
    }
  }
  return st;
}

/** Signals bash ignores by default (the rest end the shell when no trap handles them). */
const IGNORED = new Set(["CHLD", "CONT", "URG", "WINCH"]);

/**
 * `kill -SIG $$` from the shell itself: a trap for the signal runs as soon as kill returns (with
 * $? as kill's), an ignored ('') signal does nothing, and an untrapped one ends the shell with
 * 128+signal, its EXIT trap still running.
 */
async function signalSelf(sh: Shell, sig: number, fds: Fd[]): Promise<void> {
  if (sig === 0) return;
  const name = signalName(sig) ?? "";
  const action = sig === 9 || sig === 19 ? undefined : sh.traps.get(name);
  if (action === "") return;
  if (action !== undefined) {
    sh.status = 0;
    await sh.runTrap(name, fds);
    return;
  }
  if (IGNORED.has(name) || sig === 19 || sig === 20 || sig === 21 || sig === 22) return;
  throw new ExitSig(128 + sig);
}

export async function kill(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let sig = 15;
  let i = 1;
  const bad = async (s: string) => {
    await berr(sh, fds, "kill", `${s}: invalid signal specification`);
    return 1;
  };
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      i++;
      break;
    }
    if (a === "-l" || a === "-L") return listSignals(sh, skipDashDash(argv.slice(i)).slice(1), fds);
    if (a === "-s" || a === "-n") {
      const v = argv[++i];
      if (v === undefined) {
        await berr(sh, fds, "kill", `${a}: option requires an argument`);
        return 2;
      }
      const n = signalNumber(v);
      if (n === null || (a === "-n" && !/^\d+$/.test(v))) return bad(v);
      sig = n;
      continue;
    }
    if (/^-./.test(a)) {
      const n = signalNumber(a.slice(1));
      if (n === null) return bad(a.slice(1));
      sig = n;
      continue;
    }
    break;
  }
  const targets = argv.slice(i);
  if (!targets.length) {
    await sh.err(fds, "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]");
    return 2;
  }
  let st = 0;
  const jobs = sh.shared.jobs;
  for (const t of targets) {
    if (!t.startsWith("%") && !/^-?\d+$/.test(t)) {
      await berr(sh, fds, "kill", `${t}: arguments must be process or job IDs`);
      st = 1;
      continue;
    }
    if (t === String(sh.rootPid) && sh.pid === sh.rootPid) {
      await signalSelf(sh, sig, fds);
      continue;
    }
    const pid = jobPid(sh, t);
    if (pid === null) {
      await berr(sh, fds, "kill", t.startsWith("%") ? `${t}: no such job` : `(${t}) - No such process`);
      st = 1;
      continue;
    }
    if (sig === 0) continue; // existence check only
    // The job's code keeps running to its next await point; nobody waits for it any more.
    const p = jobs.get(pid)!;
    if (!ABANDONED.has(p)) {
      p.catch(() => {});
      const killed = Promise.resolve(128 + sig);
      ABANDONED.add(killed);
      jobs.set(pid, killed);
      killedBy(sh).set(pid, sig);
    }
  }
  return st;
}

export async function jobsB(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const pidsOnly = argv.includes("-p");
  const pids = [...sh.shared.jobs.keys()];
  for (let k = 0; k < pids.length; k++) {
    const mark = k === pids.length - 1 ? "+" : k === pids.length - 2 ? "-" : " ";
    if (pidsOnly) await out(fds, pids[k] + "\n");
    else await out(fds, `[${k + 1}]${mark}  ${argv.includes("-l") ? pids[k] + " " : ""}${"Running".padEnd(24)}${jobText(sh, pids[k])} &\n`);
  }
  return 0;
}

/** `wait` that also understands job specs; pids go to the plain wait. */
export async function waitJobs(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const args: string[] = [argv[0]];
  let st = 0;
  let operands = 0;
  for (const a of argv.slice(1)) {
    if (a.startsWith("-") && !/^-\d/.test(a)) {
      args.push(a);
      continue;
    }
    operands++;
    if (!a.startsWith("%")) {
      if (!/^\d+$/.test(a)) {
        await berr(sh, fds, "wait", `\`${a}': not a pid or valid job spec`);
        st = 1;
        continue;
      }
      args.push(a);
      continue;
    }
    const pid = jobPid(sh, a);
    if (pid === null) {
      await berr(sh, fds, "wait", `${a}: no such job`);
      st = 127;
      continue;
    }
    args.push(String(pid));
  }
  const pids = args
    .slice(1)
    .filter((a) => /^\d+$/.test(a))
    .map(Number);
  if (operands && !pids.length) return st;
  const r = await waitPids(sh, args, fds);
  for (const pid of pids) {
    const sig = killedBy(sh).get(pid);
    if (sig === undefined || sh.shared.jobs.has(pid)) continue;
    killedBy(sh).delete(pid);
    // bash is built with DONT_REPORT_SIGTERM: kill's default signal ends a job silently.
    if (sig !== 15 && SIG_TEXT[sig]) await sh.err(fds, `${pid} ${SIG_TEXT[sig]}`);
  }
  return r;
}
/** fg: there is no terminal to hand over, so bringing a job to the foreground means
 * printing its command and waiting for it, as bash does. */
export async function fg(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const spec = argv[1] ?? "%%";
  const pid = jobPid(sh, spec.startsWith("%") ? spec : "%" + spec, (p) => jobText(sh, p));
  if (pid === null) {
    await berr(sh, fds, argv[0], spec === "%%" ? "current: no such job" : `${spec}: no such job`);
    return 1;
  }
  await out(fds, jobText(sh, pid) + "\n");
  if (argv[0] === "bg") return 0; // already running concurrently
  return waitJobs(sh, ["wait", String(pid)], fds);
}
