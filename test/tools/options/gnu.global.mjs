// vitest globalSetup (runs in Node): the real tools' side of the option sweep
// (test/tools/options-sweep.test.ts). For each toolbox command with a counterpart installed on this
// Debian machine it lists the options its `--help` documents, builds the fixture tree in a temp
// dir, runs every case of cases.mjs there with the real tools, and hands all of it to the tests
// (`inject("optionSweep")`, typed in provided.d.ts).
import { spawnSync } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureReferenceTools, referenceMissing, referencePath } from "../../../scripts/lib/reference-tools.mjs";
import { CASES, FRESH } from "./cases.mjs";
import { FIXTURE } from "./fixture.mjs";

const NOBODY = 65534;
const root = join(dirname(fileURLToPath(import.meta.url)), "../../..");

/** Toolbox commands with no comparable --help here: shell builtins in bash, pagers, scripts. */
const SKIP = new Set(["echo", "printf", "true", "false", "less", "more", "egrep", "fgrep", "sleep", "yes", "tty"]);
/** Where the counterpart's name differs (the toolbox's awk is gawk's dialect) or its short help is the list. */
const HOST = { awk: ["gawk", "--help"], rg: ["rg", "-h"] };

/** The toolbox's command names, read from its dispatch table. */
function toolboxCommands() {
  const src = readFileSync(join(root, "wasm/toolbox/src/cmd/mod.rs"), "utf8");
  return [...src.matchAll(/^\s*\("([a-z0-9]+)", [a-z0-9_]+::run/gm)].map((m) => m[1]);
}

/**
 * Options a --help text documents: every `-x`/`--long` opening a chunk of a line that starts with
 * a dash (chunks are separated by tabs or two spaces, so descriptions do not count). --help and
 * --version are left out: they describe the tool, not what it does to files.
 */
export function helpOptions(text) {
  const found = new Set();
  for (const line of text.split("\n")) {
    if (!/^\s+-/.test(line)) continue;
    for (const chunk of line.trim().split(/\t+| {2,}/)) {
      if (!chunk.startsWith("-")) continue;
      for (const m of chunk.matchAll(/(?:^|[\s,[])(--?[A-Za-z0-9][A-Za-z0-9_-]*)/g)) {
        // bash lists its one-letter flags as groups (`-ilrsD or -c command`): each letter is an option
        if (/^-[A-Za-z]{3,} or /.test(chunk) && m.index === 0) for (const c of m[1].slice(1)) found.add(`-${c}`);
        else found.add(m[1]);
      }
    }
  }
  found.delete("--help");
  found.delete("--version");
  return [...found].sort();
}

/**
 * The documented options a case's command line uses: tokens after the command's own name (in
 * each `|`/`&&`/`;` segment it starts), `--long=value` read as `--long`, and `-abc` split while
 * each letter is documented.
 */
export function usedOptions(cmd, run, listed) {
  const known = new Set(listed);
  const used = new Set();
  for (const segment of run.replace(FRESH, "").split(/\|\||&&|[|;]/)) {
    const words = segment.trim().split(/\s+/);
    if (words[0] !== cmd) continue;
    for (const w of words.slice(1)) {
      if (w === "--") break;
      if (!/^--?[A-Za-z0-9]/.test(w)) continue;
      const name = w.startsWith("--") ? w.split("=")[0] : w;
      if (known.has(name)) used.add(name);
      else if (!w.startsWith("--"))
        for (const ch of w.slice(1)) {
          if (!known.has(`-${ch}`)) break;
          used.add(`-${ch}`);
        }
    }
  }
  return [...used];
}

function hostHelp(cmd) {
  const [bin, flag] = HOST[cmd] ?? [cmd, "--help"];
  const path = referencePath(bin);
  if (!path) return null;
  const r = spawnSync(path, [flag], { encoding: "utf8", env: { PATH: "/usr/bin:/bin", LC_ALL: "C" } });
  return r.stdout || null;
}

export default function setup(project) {
  // Every counterpart comes from the one list (scripts/lib/reference-tools.mjs); a fresh machine
  // gets the missing ones here, and a command whose counterpart is still missing fails by name.
  ensureReferenceTools("option-sweep");
  const dir = mkdtempSync(join(tmpdir(), "options-sweep-"));
  const env = { PATH: "/usr/bin:/bin", TZ: "UTC", LC_ALL: "C", HOME: dir };
  // As root the cases would reach the machine (`date -s` sets its clock): run them as nobody.
  const user = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
  if (user.uid) chownSync(dir, NOBODY, NOBODY);
  const bash = (script) => spawnSync("bash", ["-c", script], { cwd: dir, env, encoding: "utf8", timeout: 10_000, ...user });
  const made = bash(FIXTURE);
  if (made.status !== 0) throw new Error(`option sweep fixture failed: ${made.stderr}`);

  const commands = {};
  // Toolbox programs, plus what the cases check beyond them (bash itself).
  for (const cmd of new Set([...toolboxCommands(), ...Object.keys(CASES)])) {
    if (SKIP.has(cmd)) continue;
    const help = hostHelp(cmd);
    if (help) commands[cmd] = { listed: helpOptions(help) };
  }
  const owner = new RegExp(`\\b(${bash("id -un; id -gn").stdout.trim().split("\n").join("|")})\\b`, "g");
  const cases = [];
  for (const [cmd, list] of Object.entries(CASES)) {
    for (const c of list) {
      const spec = typeof c === "string" ? { run: c } : c;
      const opts = spec.opts ?? usedOptions(cmd, spec.run, commands[cmd]?.listed ?? []);
      if (spec.refused) {
        cases.push({ cmd, run: spec.run, opts: [spec.refused], refused: spec.refused });
        continue;
      }
      const r = bash(spec.run);
      cases.push({ cmd, run: spec.run, opts, stdout: r.stdout.replace(owner, "USER"), exit: r.status ?? -1 });
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const missing = {};
  for (const cmd of Object.keys(CASES)) {
    const bin = HOST[cmd]?.[0] ?? cmd;
    if (!referencePath(bin)) missing[cmd] = referenceMissing(bin);
  }
  project.provide("optionSweep", { fixture: FIXTURE, commands, cases, missing });
}
