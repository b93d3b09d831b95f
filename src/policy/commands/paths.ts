/**
 * Path reasoning for the command rules. Command arguments are only strings: these helpers
 * decide which strings name dangerous places, without touching any filesystem.
 */

export interface CommandContext {
  /** Value of $HOME in the session; `~` in an argument means this. */
  home?: string;
  /** Working directory, so `rm -rf ..` or `cat secrets/x` under /run are resolved too. */
  cwd?: string;
  /**
   * Ids of the rules this session enforces (its profile's rule set, see ../rule-sets.ts).
   * Without it every rule in COMMAND_RULES applies.
   */
  rules?: ReadonlySet<string>;
  /**
   * Where an absolute path leads once symbolic links are followed (sessions with links only), so
   * `ln -s ~ w; rm -rf w/` is refused as `rm -rf ~` is.
   */
  realPath?: (abs: string) => string;
}

export interface ResolvedContext {
  home: string;
  cwd: string;
  realPath?: (abs: string) => string;
}

// Sessions live in /workspace; it is both HOME and the starting directory unless told otherwise.
const DEFAULT_HOME = "/workspace";
const DEFAULT_CWD = "/workspace";

// The shell asks for every simple command with the same home and cwd: the last answer is kept.
let lastContext: { home?: string; cwd?: string; resolved: ResolvedContext } | null = null;

export function resolveContext(ctx?: CommandContext): ResolvedContext {
  if (lastContext && lastContext.home === ctx?.home && lastContext.cwd === ctx?.cwd && !ctx?.realPath) return lastContext.resolved;
  const home = normalize(ctx?.home && ctx.home.startsWith("/") ? ctx.home : DEFAULT_HOME);
  const cwd = normalize(ctx?.cwd && ctx.cwd.startsWith("/") ? ctx.cwd : DEFAULT_CWD);
  if (ctx?.realPath) return { home, cwd, realPath: ctx.realPath };
  const resolved = { home, cwd };
  lastContext = { home: ctx?.home, cwd: ctx?.cwd, resolved };
  return resolved;
}

/** Last path component, ignoring trailing slashes (`/bin/rm` → `rm`, `a/.env/` → `.env`). */
export function basename(p: string): string {
  if (!p.includes("/")) return p;
  const trimmed = p.replace(/\/+$/, "");
  if (trimmed === "") return p.startsWith("/") ? "/" : "";
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

function normalize(abs: string): string {
  const out: string[] = [];
  for (const seg of abs.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return `/${out.join("/")}`;
}

/**
 * Absolute, lexically normalized form of an argument, with a leading `~` read as home.
 * Returns null for the empty string: `rm -rf ""` names nothing, not the working directory.
 */
export function resolveArg(arg: string, ctx: ResolvedContext): string | null {
  if (arg === "") return null;
  // A shell loop names the same few arguments over and over: their resolution is remembered.
  let known = resolvedArgs.get(ctx);
  if (!known) resolvedArgs.set(ctx, (known = new Map()));
  let abs = known.get(arg);
  if (abs === undefined) {
    let s = arg;
    if (s === "~" || s.startsWith("~/")) s = ctx.home + s.slice(1);
    else if (!s.startsWith("/")) s = `${ctx.cwd}/${s}`;
    abs = normalize(s);
    if (known.size >= MAX_REMEMBERED_ARGS) known.clear();
    if (arg.length <= MAX_REMEMBERED_LENGTH) known.set(arg, abs);
  }
  return abs;
}

const resolvedArgs = new WeakMap<ResolvedContext, Map<string, string>>();
const MAX_REMEMBERED_ARGS = 1024;
const MAX_REMEMBERED_LENGTH = 256;

/**
 * The strings inside one argument that may be paths: the argument itself, the value of
 * `key=value` / `--opt=value` forms (`if=`, `of=`, `--env-file=`) and curl's `@file`.
 */
export function pathCandidates(arg: string): string[] {
  if (!arg.includes("=") && arg[0] !== "@") return [arg];
  const out = [arg];
  const eq = arg.indexOf("=");
  if (eq > 0) out.push(arg.slice(eq + 1));
  if (arg.startsWith("@")) out.push(arg.slice(1));
  return out;
}

/**
 * The session's own directories: emptying one (`rm -rf /tmp/*`, `rm -rf *` in /workspace) is the
 * session's business and what agents type to clean up; the directory itself stays protected.
 */
const SESSION_ROOTS: ReadonlySet<string> = new Set(["/tmp", "/workspace"]);

/** A glob of everything in `dir` (`dir/*`) removes what the directory holds, not the directory. */
const emptiesOwnRoot = (dir: string, globbed: boolean): boolean => globbed && SESSION_ROOTS.has(dir);

/**
 * Targets whose recursive removal destroys the system or the whole session: `/`, any
 * top-level directory (`/etc`, `/usr`, `/workspace` itself), the home directory and its
 * ancestors. A trailing `/*` or `/.*` (a glob the shell left unexpanded, or the pattern the shell
 * reports beside what it matched, `rm -rf /*`) counts as its parent, except in the session's own
 * directories (/tmp, /workspace): `rm -rf ~/*` there empties the workspace and is allowed.
 */
export function isProtectedTarget(arg: string, ctx: ResolvedContext): boolean {
  let p = resolveArg(arg, ctx);
  if (p === null) return false;
  let globbed = false;
  while (p.endsWith("/*") || p.endsWith("/.*")) {
    p = normalize(p.slice(0, p.lastIndexOf("/")));
    globbed = true;
  }
  if (emptiesOwnRoot(p, globbed)) return false;
  if (isProtectedPath(p, ctx)) return true;
  if (!ctx.realPath) return false;
  // rm follows a link only through a trailing slash or a glob below it; a bare link is removed itself.
  const follows = globbed || arg.endsWith("/");
  let real: string;
  try {
    const dir = p.slice(0, p.lastIndexOf("/")) || "/";
    real = follows ? ctx.realPath(p) : `${ctx.realPath(dir).replace(/\/$/, "")}/${p.slice(p.lastIndexOf("/") + 1)}`;
  } catch {
    return false;
  }
  return real !== p && !emptiesOwnRoot(real, globbed) && isProtectedPath(real, ctx);
}

function isProtectedPath(p: string, ctx: ResolvedContext): boolean {
  const depth = p.split("/").length - 1;
  return depth <= 1 || p === ctx.home || ctx.home.startsWith(`${p}/`);
}

// Disks and partitions, and the raw memory and port devices (`/dev/mem`, `/dev/kmem`, `/dev/port`)
// that read or write the machine itself. `/dev/zero`, `/dev/null` and the random devices are not here.
const BLOCK_DEVICE =
  /^\/dev\/(?:[shv]d[a-z]+\d*|xvd[a-z]+\d*|nvme\d+n\d+(?:p\d+)?|mmcblk\d+(?:p\d+)?|loop\d+|dm-\d+|md\d+|sr\d+|sg\d+|disk\/.+|mapper\/.+|raw\/.+|mem|kmem|port)$/;

/**
 * Whether a path names a disk or partition device (`/dev/sda`, `/dev/nvme0n1p1`, ...).
 * Exported so the shell can refuse redirections such as `> /dev/sda` with the same test.
 */
export function isBlockDevicePath(p: string, ctx?: CommandContext): boolean {
  const abs = resolveArg(p, resolveContext(ctx));
  return abs !== null && isBlockDeviceAbs(abs);
}

/** As isBlockDevicePath for a path already resolved. */
export function isBlockDeviceAbs(abs: string): boolean {
  return BLOCK_DEVICE.test(abs);
}

/**
 * `.env` and `.env.<anything>` (`.env.local`, `.env.production`), the same names the file
 * policy protects. `.envrc` and `.environment` are other files and are not matched.
 */
export function isDotEnvName(name: string): boolean {
  return name === ".env" || name.startsWith(".env.");
}

export function isProcEnvironPath(abs: string): boolean {
  return /^\/proc\/[^/]+(?:\/task\/[^/]+)?\/environ$/.test(abs);
}

export function isRunSecretsPath(abs: string): boolean {
  return abs === "/run/secrets" || abs.startsWith("/run/secrets/");
}
