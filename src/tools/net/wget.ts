import { NetError } from "../../net/errors";
import { safeFetch } from "../../net/fetch";
import { PolicyDenied } from "../../policy/denied";
import type { ProgramIo } from "../../shell/host";
import type { ToolContext } from "../types";
import { hasScheme, headerBlock, remoteName, reportUrlDenial, saveFile, say, writeOut } from "./cli-io";
import { netOf } from "./web-fetch";
import { LIMITS } from "../../limits";

const MAX_FILE_BYTES = LIMITS.downloadBytes;
/** wget's exit statuses. */
const EXIT = { generic: 1, usage: 2, io: 3, network: 4, server: 8 } as const;

interface WgetArgs {
  urls: string[];
  output?: string;
  quiet: boolean;
  serverResponse: boolean;
  headers: [string, string][];
  prefix?: string;
}

/** Short flags combine and the last may take its value attached: `-qO-`, `-qSO file`, `-Pdl`. */
function splitShort(argv: string[]): string[] {
  const out: string[] = [];
  for (const arg of argv) {
    if (!/^-[^-]./.test(arg)) {
      out.push(arg);
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const c = arg[j]!;
      if (c === "O" || c === "P") {
        out.push(`-${c}`);
        if (j + 1 < arg.length) out.push(arg.slice(j + 1));
        break;
      }
      out.push(`-${c}`);
    }
  }
  return out;
}

function parseWgetArgs(rawArgv: string[]): WgetArgs | string {
  const a: WgetArgs = { urls: [], quiet: false, serverResponse: false, headers: [] };
  const argv = splitShort(rawArgv);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf("=");
    const [name, attached] = arg.startsWith("--") && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = attached ?? (["-O", "--output-document", "-P", "--directory-prefix", "--header"].includes(name) ? argv[++i] : undefined);
    const missing = `option requires an argument -- '${name.replace(/^-+/, "")}'`;
    if (name === "-q" || name === "--quiet") a.quiet = true;
    else if (name === "-S" || name === "--server-response") a.serverResponse = true;
    else if (name === "-O" || name === "--output-document") {
      if (value === undefined) return missing;
      a.output = value;
    } else if (name === "-P" || name === "--directory-prefix") {
      if (value === undefined) return missing;
      a.prefix = value;
    } else if (name === "--header") {
      if (value === undefined) return missing;
      const c = value.indexOf(":");
      if (c <= 0) return `invalid header '${value}'`;
      a.headers.push([value.slice(0, c).trim(), value.slice(c + 1).trim()]);
    } else if (name.startsWith("-") && name !== "-") return `unrecognized option '${arg}'`;
    else a.urls.push(arg);
  }
  return a;
}

/** A path not yet taken in the workspace: `file`, else `file.1`, `file.2`, ... as wget does. */
function freshName(ctx: ToolContext, cwd: string, path: string): string {
  const taken = (n: string) => {
    try {
      return ctx.fs.stat(ctx.fs.resolve(cwd, n)) !== null;
    } catch {
      return false; // a refused path is reported by the write
    }
  };
  if (!taken(path)) return path;
  for (let i = 1; ; i++) if (!taken(`${path}.${i}`)) return `${path}.${i}`;
}

/** `wget`, run by the host over the one fetch path and URL policy; redirects followed, each hop judged. */
export async function wget(argv: string[], io: ProgramIo, ctx: ToolContext): Promise<number> {
  const parsed = parseWgetArgs(argv.slice(1));
  if (typeof parsed === "string") {
    await say(io.stderr, `wget: ${parsed}\nUsage: wget [OPTION]... [URL]...\n`);
    return EXIT.usage;
  }
  const args = parsed;
  const log = (text: string) => (args.quiet ? Promise.resolve() : say(io.stderr, text));
  if (!args.urls.length) {
    await say(io.stderr, "wget: missing URL\nUsage: wget [OPTION]... [URL]...\n");
    return EXIT.generic;
  }
  const headers: Record<string, string> = { "user-agent": "Wget/1.21.4", accept: "*/*" };
  for (const [k, v] of args.headers) headers[k.toLowerCase()] = v;
  let status = 0;
  for (const raw of args.urls) {
    const url = hasScheme(raw) ? raw : `http://${raw}`;
    await log(`--${new Date().toISOString().replace("T", " ").slice(0, 19)}--  ${url}\n`);
    const toStdout = args.output === "-" || args.output === "/dev/stdout";
    try {
      const r = await safeFetch(netOf(ctx), url, { headers, timeoutMs: io.limits.timeoutMs, maxBytes: toStdout ? io.limits.maxOutputBytes : MAX_FILE_BYTES });
      if (args.serverResponse) await say(io.stderr, headerBlock(r.status, r.statusText, r.headers, "  ").replace(/\r\n/g, "\n"));
      await log(`HTTP request sent, awaiting response... ${r.status} ${r.statusText}\n`);
      if (r.truncated) {
        await say(io.stderr, `wget: ${url}: larger than ${toStdout ? io.limits.maxOutputBytes : MAX_FILE_BYTES} bytes; not saved\n`);
        status = EXIT.io;
        continue;
      }
      if (r.status >= 400) {
        await say(io.stderr, `${new Date().toISOString().slice(0, 19).replace("T", " ")} ERROR ${r.status}: ${r.statusText}.\n`);
        status = EXIT.server;
        continue;
      }
      if (args.output === "/dev/null") continue;
      if (toStdout) {
        if (!(await writeOut(io, r.body))) return EXIT.io;
        continue;
      }
      const name = remoteName(r.url, "index.html");
      const path = args.output ?? freshName(ctx, io.cwd, args.prefix ? `${args.prefix.replace(/\/+$/, "")}/${name}` : name);
      const err = saveFile(ctx, io.cwd, path, r.body, true);
      if (err) {
        await say(io.stderr, `wget: ${err}\n`);
        status = EXIT.io;
        continue;
      }
      await log(
        `Length: ${r.body.length} [${r.headers.get("content-type") ?? "unknown"}]\nSaving to: '${path}'\n\n'${path}' saved [${r.body.length}/${r.body.length}]\n\n`,
      );
    } catch (e) {
      if (e instanceof PolicyDenied) {
        if (e.rule === "url.syntax") {
          await say(io.stderr, `${raw}: Unsupported scheme or invalid URL.\n`);
          status = EXIT.generic;
          continue;
        }
        return reportUrlDenial(ctx, io, "wget", e);
      }
      if (e instanceof NetError) {
        await say(io.stderr, `wget: ${e.message}\n`);
        status = EXIT.network;
        continue;
      }
      throw e;
    }
  }
  return status;
}
