import type { ProgramIo } from "../../shell/host";
import type { Subshell, ToolContext } from "../types";

const enc = new TextEncoder();
const say = (w: ProgramIo["stderr"], text: string) => w.write(enc.encode(text)).catch(() => undefined);
const NO_REGISTRY =
  "cannot reach a package registry from this sandbox: packages cannot be installed here. Use packages already in the workspace's node_modules, or write the code with Node's built-in modules.";

/**
 * `npm` and `npx` as far as they can work here: `npm run <script>`, `npm test`, `npm start` run
 * package.json scripts through the session's shell (node_modules/.bin on PATH); `npx <bin>` runs
 * a binary already in node_modules/.bin. Anything that needs the registry says why it cannot.
 */
export async function npm(argv: string[], io: ProgramIo, ctx: ToolContext, shell: Subshell): Promise<number> {
  const name = argv[0]!.slice(argv[0]!.lastIndexOf("/") + 1);
  const args = argv.slice(1);
  if (name === "npx") {
    const bin = args.find((a) => !a.startsWith("-"));
    if (bin && ctx.fs.stat(ctx.fs.resolve(io.cwd, `node_modules/.bin/${bin}`))) return run(`node_modules/.bin/${args.join(" ")}`, io, ctx, shell);
    await say(io.stderr, `npx: ${bin ?? "(nothing)"} is not in node_modules/.bin, and npx ${NO_REGISTRY}\n`);
    return 1;
  }
  const cmd = args[0];
  if (cmd === "-v" || cmd === "--version") return io.stdout.write(enc.encode("9.6.4\n")).then(() => 0);
  const script = cmd === "run" || cmd === "run-script" ? args[1] : cmd === "test" || cmd === "start" || cmd === "t" ? (cmd === "t" ? "test" : cmd) : undefined;
  if (script === undefined) {
    await say(io.stderr, cmd ? `npm ${cmd}: npm ${NO_REGISTRY} Only npm run, npm test and npm start work here.\n` : "Usage: npm run <script> | npm test | npm start\n");
    return 1;
  }
  let pkg: { scripts?: Record<string, string> };
  try {
    pkg = JSON.parse(new TextDecoder().decode(ctx.fs.readFile(ctx.fs.resolve(io.cwd, "package.json"))));
  } catch {
    await say(io.stderr, `npm error code ENOENT\nnpm error Could not read package.json in ${io.cwd}\n`);
    return 254;
  }
  const body = pkg.scripts?.[script];
  if (body === undefined) {
    await say(io.stderr, `npm error Missing script: "${script}"\n`);
    return 1;
  }
  const extra = (cmd === "run" || cmd === "run-script" ? args.slice(2) : args.slice(1)).filter((a) => a !== "--");
  return run(`${body}${extra.length ? ` ${extra.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ")}` : ""}`, io, ctx, shell, true);
}

async function run(script: string, io: ProgramIo, ctx: ToolContext, shell: Subshell, binOnPath = false): Promise<number> {
  const env = binOnPath ? { ...io.env, PATH: `${io.cwd}/node_modules/.bin:${io.env.PATH ?? "/usr/bin:/bin"}` } : io.env;
  const r = await shell(script, { cwd: io.cwd, env, limits: { timeoutMs: io.limits.timeoutMs, maxOutputBytes: io.limits.maxOutputBytes } });
  if (r.stdout.length) await io.stdout.write(r.stdout);
  if (r.stderr.length) await io.stderr.write(r.stderr).catch(() => undefined);
  return r.exitCode;
}
