import { programFetchFailure } from "../fetch-failure";
import { safeFetch } from "../../net/fetch";
import { filterEnv } from "../../policy/env";
import { PolicyDenied } from "../../policy/denied";
import { EpipeError, type ProgramIo } from "../../shell/host";
import { netOf } from "../net/web-fetch";
import type { Subshell, ToolContext } from "../types";
import { NODE_MAX_CHILD_RUNS, NODE_MAX_FETCH_BYTES, NODE_MAX_STDIN_BYTES } from "./limits";
import { NODE_VERSION, runNode, type NodeMain } from "./run";
import { makeServices, type ServiceDoors } from "./services";

const enc = new TextEncoder();
const dec = new TextDecoder();
const say = (w: ProgramIo["stderr"], text: string) => w.write(enc.encode(text)).catch(() => undefined);

const HELP = `Usage: node [options] [ script.js | -e "script" | - ] [arguments]

Options supported here (JavaScript runs in QuickJS inside the sandbox; see docs/node.md):
  -e, --eval script          evaluate script
  -p, --print script         evaluate script and print result
  --input-type=module        treat -e / stdin code as an ES module
  -c, --check                syntax check script without executing
  -v, --version              print Node.js version
  -h, --help                 print this help
`;

/** Options that only tune V8 or Node's own machinery: accepted and ignored, as harmless here. */
const IGNORED =
  /^--(no-warnings|no-deprecation|enable-source-maps|experimental-[\w-]+|trace-warnings|max-old-space-size(=\d+)?|stack-size=\d+|unhandled-rejections=\w+|preserve-symlinks)$/;
/** Options that cannot work here, and why. */
const REFUSED: Record<string, string> = {
  "-r": "preloading modules is not supported; require() them at the top of the script",
  "--require": "preloading modules is not supported; require() them at the top of the script",
  "--import": "preloading modules is not supported; import them at the top of the script",
  "--inspect": "there is no debugger in this sandbox",
  "--inspect-brk": "there is no debugger in this sandbox",
  "-i": "there is no interactive terminal; run a script with -e or a file",
  "--interactive": "there is no interactive terminal; run a script with -e or a file",
  "--test": "the built-in test runner is not available; run the test file with node directly",
  "--watch": "watch mode is not available; run the script again",
};

type Parsed = { main: NodeMain | "stdin"; args: string[]; check: boolean } | { print: string; code: number };

function parseNodeArgs(argv: string[]): Parsed {
  let esm = false;
  let check = false;
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      i++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    if (a === "-v" || a === "--version") return { print: `${NODE_VERSION}\n`, code: 0 };
    if (a === "-h" || a === "--help") return { print: HELP, code: 0 };
    if (a === "--input-type=module") esm = true;
    else if (a === "--input-type=commonjs") esm = false;
    else if (a === "-c" || a === "--check") check = true;
    else if (a === "-e" || a === "--eval" || a === "-p" || a === "--print" || a === "-pe") {
      const code = argv[i + 1];
      if (code === undefined) return { print: `node: ${a} requires an argument\n`, code: 9 };
      return { main: { kind: "eval", code, print: a.startsWith("-p") || a === "--print", esm }, args: argv.slice(i + 2), check };
    } else if (IGNORED.test(a)) continue;
    else {
      const name = a.split("=")[0]!;
      const why = REFUSED[name];
      return { print: why ? `node: ${name} is not supported here: ${why}\n` : `node: bad option: ${a}\n`, code: 9 };
    }
  }
  const script = argv[i];
  if (script === undefined || script === "-") return { main: "stdin", args: argv.slice(i + 1), check };
  return { main: { kind: "file", path: script }, args: argv.slice(i + 1), check };
}

/** The main file as Node finds it: the path, then with .js/.json/.cjs/.mjs, then a directory's index.js. */
function findMain(ctx: ToolContext, cwd: string, path: string): string | null {
  let abs: string;
  try {
    abs = ctx.fs.resolve(cwd, path);
  } catch {
    return null;
  }
  for (const c of [abs, `${abs}.js`, `${abs}.json`, `${abs}.cjs`, `${abs}.mjs`, `${abs}/index.js`]) {
    if (ctx.fs.stat(c)?.kind === "file") return c;
  }
  return null;
}

/** Whether the script may read stdin: named in its source (a cheap look before the run). */
const READS_STDIN = /stdin|readFileSync\(\s*0|readline/;

async function readStdin(io: ProgramIo): Promise<Uint8Array | string> {
  if (io.stdin.isNull) return new Uint8Array(0);
  const parts: Uint8Array[] = [];
  let total = 0;
  for (let chunk = await io.stdin.read(); chunk; chunk = await io.stdin.read()) {
    total += chunk.length;
    if (total > NODE_MAX_STDIN_BYTES) return `input larger than ${NODE_MAX_STDIN_BYTES} bytes; write it to a file and read the file`;
    parts.push(chunk);
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) out.set(p, off), (off += p.length);
  return out;
}

const latin1 = (b: Uint8Array): string => {
  let s = "";
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return s;
};

/** The session's shell and network as child_process and fetch reach them. */
function doors(ctx: ToolContext, io: ProgramIo, shell: Subshell, nodeEnv: () => Record<string, string>): ServiceDoors {
  let runs = 0;
  return {
    async shell(script, cwd, env, input) {
      if (++runs > NODE_MAX_CHILD_RUNS) return { status: 126, stdout: "", stderr: `toolshed: a node run may start at most ${NODE_MAX_CHILD_RUNS} commands\n` };
      const dir = cwd ? ctx.fs.resolve(io.cwd, cwd) : io.cwd;
      // The child's environment passes the same env rules as any other (LD_PRELOAD, NODE_OPTIONS, ...).
      const childEnv = env ? filterEnv(env).env : nodeEnv();
      const r = await shell(script, {
        cwd: dir,
        env: { ...childEnv, PWD: dir },
        stdin: input === null ? undefined : Uint8Array.from(input, (ch) => ch.charCodeAt(0) & 0xff),
        limits: { timeoutMs: io.limits.timeoutMs, maxOutputBytes: io.limits.maxOutputBytes },
      });
      // Bytes as latin1 strings (one char per byte): the guest decodes them as the script asks.
      return { status: r.exitCode, stdout: latin1(r.stdout), stderr: latin1(r.stderr) };
    },
    async fetch(url, init, body) {
      try {
        const r = await safeFetch(netOf(ctx), url, {
          method: init.method,
          headers: init.headers,
          body: body ?? undefined,
          followRedirects: init.redirect !== "manual",
          timeoutMs: io.limits.timeoutMs,
          maxBytes: NODE_MAX_FETCH_BYTES,
        });
        return { status: r.status, statusText: r.statusText, url: r.url, redirected: r.hops.length > 1, headers: [...r.headers], body: btoa(latin1(r.body)) };
      } catch (e) {
        return programFetchFailure(e, (d) => ctx.reportDenial?.(d));
      }
    },
  };
}

/**
 * `node` (also `js`), run by the host like curl: JavaScript in QuickJS (src/tools/node/run.ts)
 * with Node's APIs over the session's files, shell and network, every door under the policy.
 */
export async function node(argv: string[], io: ProgramIo, ctx: ToolContext, shell: Subshell): Promise<number> {
  const parsed = parseNodeArgs(argv.slice(1));
  if ("print" in parsed) {
    await (parsed.code === 0 ? io.stdout : io.stderr).write(enc.encode(parsed.print)).catch(() => undefined);
    return parsed.code;
  }
  let main: NodeMain;
  let source: string;
  let stdin: Uint8Array | null = null;
  let scriptPath = "[eval]";
  if (parsed.main === "stdin") {
    const read = await readStdin(io);
    if (typeof read === "string") return say(io.stderr, `node: ${read}\n`).then(() => 1);
    source = dec.decode(read);
    stdin = new Uint8Array(0);
    main = { kind: "eval", code: source, print: false, esm: false };
    scriptPath = "[stdin]";
  } else if (parsed.main.kind === "file") {
    const found = findMain(ctx, io.cwd, parsed.main.path);
    if (!found) {
      let shown = parsed.main.path;
      try {
        shown = ctx.fs.normalize(io.cwd, parsed.main.path);
      } catch {
        /* keep it as written */
      }
      await say(io.stderr, `Error: Cannot find module '${shown}'\n  code: 'MODULE_NOT_FOUND',\n  requireStack: []\n\nNode.js ${NODE_VERSION}\n`);
      return 1;
    }
    try {
      source = dec.decode(ctx.fs.readFile(found));
    } catch (e) {
      if (e instanceof PolicyDenied) {
        ctx.reportDenial?.(e.denial);
        await say(io.stderr, `node: ${parsed.main.path}: toolshed: denied (${e.rule}): ${e.message}\n`);
        return 126;
      }
      throw e;
    }
    main = { kind: "file", path: found };
    scriptPath = found;
  } else {
    main = parsed.main;
    source = parsed.main.code;
  }
  if (parsed.check) {
    return 0;
  }
  if (stdin === null) {
    if (io.stdin.settled || READS_STDIN.test(source)) {
      const read = await readStdin(io);
      if (typeof read === "string") return say(io.stderr, `node: ${read}\n`).then(() => 1);
      stdin = read;
    } else stdin = new Uint8Array(0);
  }
  const env = filterEnv(io.env).env;
  // Output in order through one queue; straight through when the shell's writers never wait.
  const queue: [1 | 2, Uint8Array][] = [];
  let broken = false;
  const direct = io.stdout.writeSync && io.stderr.writeSync;
  const write = (fd: 1 | 2, bytes: Uint8Array) => {
    if (broken) return;
    if (direct) (fd === 1 ? io.stdout : io.stderr).writeSync!(bytes);
    else queue.push([fd, bytes]);
  };
  const flush = async () => {
    while (queue.length) {
      const [fd, bytes] = queue.shift()!;
      try {
        await (fd === 1 ? io.stdout : io.stderr).write(bytes);
      } catch (e) {
        if (e instanceof EpipeError) {
          broken = true;
          queue.length = 0;
          return;
        }
        throw e;
      }
    }
  };
  const code = await runNode({
    fs: ctx.fs,
    cwd: io.cwd,
    env,
    argv: ["/usr/bin/node", ...(main.kind === "file" ? [scriptPath] : []), ...parsed.args],
    main,
    stdin,
    timeoutMs: io.limits.timeoutMs,
    maxOutputBytes: io.limits.maxOutputBytes,
    services: makeServices(doors(ctx, io, shell, () => env)),
    write,
    flush,
    denied: (d) => ctx.reportDenial?.(d),
  });
  if (broken) throw new EpipeError();
  return code;
}
