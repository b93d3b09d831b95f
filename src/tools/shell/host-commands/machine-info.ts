import type { ProgramIo } from "../../../shell/host";
import type { HostCommand } from "./index";

/**
 * getconf, locale and stty: what a Debian box answers, for this machine (x86_64 like `uname -m`,
 * one processor like `nproc`, 128 MiB like /proc/meminfo, open files as `ulimit -n`, the C and
 * C.UTF-8 locales only, never a terminal).
 */

const enc = new TextEncoder();
const say = (w: ProgramIo["stdout"], text: string) => w.write(enc.encode(text));
const complain = (io: ProgramIo, text: string) => io.stderr.write(enc.encode(text)).catch(() => undefined);

const PAGE = 4096;
/** System variables, in the order `getconf -a` lists them. */
const CONF: [string, string][] = [
  ["ARG_MAX", "2097152"],
  ["CHILD_MAX", "4096"],
  ["CLK_TCK", "100"],
  ["NGROUPS_MAX", "65536"],
  ["OPEN_MAX", "1024"],
  ["STREAM_MAX", "16"],
  ["TZNAME_MAX", ""],
  ["HOST_NAME_MAX", "64"],
  ["LOGIN_NAME_MAX", "256"],
  ["LINE_MAX", "2048"],
  ["PAGESIZE", String(PAGE)],
  ["PAGE_SIZE", String(PAGE)],
  ["_NPROCESSORS_CONF", "1"],
  ["_NPROCESSORS_ONLN", "1"],
  ["_PHYS_PAGES", String((128 * 1024 * 1024) / PAGE)],
  ["_AVPHYS_PAGES", String((64 * 1024 * 1024) / PAGE)],
  ["CHAR_BIT", "8"],
  ["INT_MAX", "2147483647"],
  ["INT_MIN", "-2147483648"],
  ["LONG_BIT", "64"],
  ["WORD_BIT", "32"],
  ["UINT_MAX", "4294967295"],
  ["GNU_LIBC_VERSION", "glibc 2.36"],
  ["GNU_LIBPTHREAD_VERSION", "NPTL 2.36"],
];
/** Path variables (`getconf NAME PATH`); the path only has to exist. */
const PATH_CONF: [string, string][] = [
  ["LINK_MAX", "65000"],
  ["MAX_CANON", "255"],
  ["MAX_INPUT", "255"],
  ["NAME_MAX", "255"],
  ["PATH_MAX", "4096"],
  ["PIPE_BUF", "4096"],
  ["FILESIZEBITS", "64"],
];
const CONF_MAP = new Map([...CONF, ...PATH_CONF]);

export const getconf: HostCommand = async (argv, io) => {
  const args = argv.slice(1);
  if (args[0] === "-v") args.splice(0, 2);
  if (args[0] === "-a") {
    const rows = [...CONF, ...PATH_CONF].map(([k, v]) => `${k.padEnd(35)}${v}`.trimEnd() + "\n");
    await say(io.stdout, rows.join(""));
    return 0;
  }
  const [name, path] = args;
  if (name === undefined || args.length > 2) {
    await complain(io, "Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]\n");
    return 2;
  }
  const value = CONF_MAP.get(name) ?? CONF_MAP.get(name.replace(/^_POSIX_/, ""));
  if (value === undefined) {
    await complain(io, `getconf: Unrecognized variable \`${name}'\n`);
    return 2;
  }
  void path;
  await say(io.stdout, `${value}\n`);
  return 0;
};

const CATEGORIES = [
  "LC_CTYPE",
  "LC_NUMERIC",
  "LC_TIME",
  "LC_COLLATE",
  "LC_MONETARY",
  "LC_MESSAGES",
  "LC_PAPER",
  "LC_NAME",
  "LC_ADDRESS",
  "LC_TELEPHONE",
  "LC_MEASUREMENT",
  "LC_IDENTIFICATION",
];
const LOCALES = ["C", "C.utf8", "POSIX"];

export const locale: HostCommand = async (argv, io) => {
  const args = argv.slice(1);
  const env = io.env;
  if (args[0] === "-a" || args[0] === "--all-locales") {
    await say(io.stdout, LOCALES.map((l) => `${l}\n`).join(""));
    return 0;
  }
  if (args.length === 1 && args[0] === "charmap") {
    const ctype = env.LC_ALL || env.LC_CTYPE || env.LANG || "";
    await say(io.stdout, /utf-?8/i.test(ctype) ? "UTF-8\n" : "ANSI_X3.4-1968\n");
    return 0;
  }
  if (args.length > 0) {
    // `locale NAME`: the categories' values are not kept here; name what is there instead.
    await complain(io, `locale: unknown name "${args[0]}" (this sandbox knows the C, C.UTF-8 and POSIX locales only; try 'locale' or 'locale -a')\n`);
    return 1;
  }
  // A category set in the environment prints bare; one derived from LC_ALL or LANG prints quoted.
  const all = env.LC_ALL || undefined;
  const fallback = all ?? (env.LANG || "POSIX");
  const lines = [`LANG=${env.LANG ?? ""}`, `LANGUAGE=${env.LANGUAGE ?? ""}`];
  for (const c of CATEGORIES) lines.push(env[c] && !all ? `${c}=${env[c]}` : `${c}="${fallback}"`);
  lines.push(`LC_ALL=${env.LC_ALL ?? ""}`);
  await say(io.stdout, lines.join("\n") + "\n");
  return 0;
};

/** No terminal is ever attached here, so every stty call is the one a Linux box gives without one. */
export const stty: HostCommand = async (argv, io) => {
  if (argv[1] === "--help") {
    await say(
      io.stdout,
      "Usage: stty [-F DEVICE | --file=DEVICE] [SETTING]...\nPrint or change terminal characteristics.\n(There is never a terminal in this sandbox: every setting fails as on a box without one.)\n",
    );
    return 0;
  }
  await complain(io, "stty: 'standard input': Inappropriate ioctl for device\n");
  return 1;
};
