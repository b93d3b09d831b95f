// vitest globalSetup (runs in Node): Debian's python3.11 and sqlite3 run every case of
// test/python/cases.mjs as `nobody` in a fresh directory holding the case's files; the outputs
// go to test/python/table.test.ts (`inject("pythonReference")`), which runs the same command
// lines in a session and compares. The temporary directory's path is written as /workspace
// (the session's cwd) so tracebacks and paths compare.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { requireReferenceTools } from "../../scripts/lib/reference-tools.mjs";
import { PY_CASES, SQLITE_CASES } from "./cases.mjs";

const PYTHON = "/usr/bin/python3.11";
const SQLITE = "/usr/bin/sqlite3";
const NOBODY = 65534;

/** Differences that are not behaviour: unittest's timing line. */
export function normalize(text) {
  return text.replace(/^(Ran \d+ tests?) in \d+\.\d+s$/gm, "$1 in T");
}

/** The command line both sides run: stdin, when the case has one, comes from a file beside the case's directory. */
export function commandOf(c) {
  return c.stdin === undefined ? c.run : `{\n${c.run}\n} < ../stdin-${c.dir}.txt`;
}

const osSignals = constants.signals;

/** Runs `argv` with `input`, resolving to what spawnSync would return (stdout, stderr, status). */
function spawnAsync(argv, opts) {
  return new Promise((resolve) => {
    const p = spawn(argv[0], argv.slice(1), { cwd: opts.cwd, stdio: ["pipe", "pipe", "pipe"] });
    const out = [];
    const err = [];
    const timer = setTimeout(() => p.kill("SIGKILL"), opts.timeout);
    p.stdout.on("data", (d) => out.push(d));
    p.stderr.on("data", (d) => err.push(d));
    p.on("close", (status, signal) => {
      clearTimeout(timer);
      // Killed by a signal (python re-raises SIGINT after KeyboardInterrupt): 128 + its number, as bash reports.
      const code = status ?? 128 + (signal ? (osSignals[signal] ?? 0) : 0);
      resolve({ stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), status: code });
    });
    // A program that exits without reading its stdin closes the pipe: not an error here.
    p.stdin.on("error", () => undefined);
    p.stdin.end(opts.input);
  });
}

async function runCase(c, bin) {
  const dir = mkdtempSync(join(tmpdir(), "pyref-"));
  try {
    chmodSync(dir, 0o777);
    const work = join(dir, "w");
    mkdirSync(work);
    if (c.stdin !== undefined) writeFileSync(join(dir, `stdin-${c.dir}.txt`), c.stdin);
    spawnSync("chmod", ["-R", "a+rX", dir]);
    for (const [path, text] of Object.entries(c.files ?? {})) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), text);
    }
    spawnSync("chown", ["-R", `${NOBODY}:${NOBODY}`, work]);
    const env = {
      HOME: work,
      PWD: work,
      PATH: `${bin}:/usr/bin:/bin`,
      SHELL: "/bin/bash",
      USER: "agent",
      LOGNAME: "agent",
      LANG: "C.UTF-8",
      TERM: "dumb",
      TMPDIR: "/tmp",
    };
    const r = await spawnAsync(
      [
        "setpriv",
        "--reuid",
        String(NOBODY),
        "--regid",
        String(NOBODY),
        "--clear-groups",
        "env",
        "-i",
        ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
        "bash",
        "-c",
        commandOf(c),
      ],
      {
        cwd: work,
        input: "",
        timeout: 30_000,
      },
    );
    const fix = (s) => normalize((s ?? "").split(work).join(`/workspace/${c.dir}`).split(`${bin}/`).join("/usr/bin/"));
    return { stdout: fix(r.stdout), stderr: fix(r.stderr), exit: r.status ?? -1 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A case's `madeByDebian` ({ file: argv, input }): files made by Debian's own programs (bzip2,
 * xz) from `input`, as base64 text so both sides get them through the same files (the case's
 * command line decodes them).
 */
function withMadeFiles(c) {
  if (!c.madeByDebian) return c;
  const { input, ...made } = c.madeByDebian;
  const files = { ...c.files };
  for (const [name, argv] of Object.entries(made)) {
    const r = spawnSync(argv[0], argv.slice(1), { input });
    if (r.status !== 0) throw new Error(`python reference: ${argv.join(" ")} failed: ${r.stderr}`);
    files[name] = `${r.stdout.toString("base64")}\n`;
  }
  const { madeByDebian: _, ...rest } = c;
  return { ...rest, files };
}

/** Runs the cases a few at a time (the reference programs mostly wait on process start). */
async function runAll(cases, bin) {
  const out = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      out[i] = { ...cases[i], ...(await runCase(cases[i], bin)) };
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return out;
}

/** Only runs that include the Python tests pay for the reference runs. */
function wanted() {
  if (process.env.TOOLSHED_PYTHON_REFERENCE === "0") return false;
  const filters = process.argv.slice(2).filter((a) => !a.startsWith("-") && a !== "run" && a !== "vitest" && !/^\d+$/.test(a));
  return filters.length === 0 || filters.some((f) => f.includes("python"));
}

export default async function setup({ provide }) {
  if (!wanted()) {
    provide("pythonReference", { py: [], sqlite: [] });
    return;
  }
  requireReferenceTools("python-reference", ["python3.11", "sqlite3", "bzip2", "xz-utils"]);
  // `python3`, `python` on the reference PATH are Debian's python3.11 (not a pyenv or other python).
  const bin = mkdtempSync(join(tmpdir(), "pyref-bin-"));
  chmodSync(bin, 0o755);
  for (const n of ["python3", "python", "python3.11"]) symlinkSync(PYTHON, join(bin, n));
  symlinkSync(SQLITE, join(bin, "sqlite3"));
  try {
    provide("pythonReference", {
      py: await runAll(
        PY_CASES.map((c, i) => ({ ...withMadeFiles(c), dir: `p${i}` })),
        bin,
      ),
      sqlite: await runAll(
        SQLITE_CASES.map((c, i) => ({ ...c, dir: `s${i}` })),
        bin,
      ),
    });
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}
