import { z } from "zod";
import { programFetchFailure } from "../fetch-failure";
import { safeFetch } from "../../net/fetch";
import { filterEnv } from "../../policy/env";
import { PolicyDenied } from "../../policy/denied";
import type { ProgramIo } from "../../shell/host";
import type { HostCall } from "../../wasi/runner";
import { netOf } from "../net/web-fetch";
import type { Subshell, ToolContext } from "../types";
import { LIMITS } from "../../limits";

/**
 * What a WASI program may ask the session for on /dev/toolshed (src/wasi/fs/host-device.ts):
 * Python's subprocess/os.system/os.popen run their command line through the session's own shell
 * (`Subshell`, the one node's child_process uses: command rules, file policy, log, limits), and
 * urllib.request fetches through the one URL policy (`safeFetch`, as curl). The Python side is
 * src/wasi/python/host-module.ts. Requests and answers are JSON; bytes travel as base64.
 */

const MAX_CALLS = LIMITS.programHostCalls;
const MAX_FETCH_BYTES = LIMITS.programFetchBytes;

const RunRequest = z.object({
  op: z.literal("run"),
  /** The command line, as bash reads it (an argv is quoted by the Python side). */
  script: z.string(),
  /** For an argv (shell=False): the program, which must exist as for exec (else ENOENT). */
  program: z.string().nullish(),
  cwd: z.string(),
  env: z.record(z.string(), z.string()),
  stdin: z.string().nullish(),
  /** stderr=STDOUT: both streams in one, in order. */
  merge: z.boolean().optional(),
  /**
   * Python's `timeout=` in seconds: the command's own time budget (steps, fuel and clock, as
   * the call's timeout bounds a bash call), so it is stopped when it runs out, even in a CPU loop.
   */
  timeout: z.number().min(0).max(1e9).nullish(),
});

const FetchRequest = z.object({
  op: z.literal("fetch"),
  url: z.string(),
  method: z.string().regex(/^[A-Za-z]{1,16}$/),
  headers: z.array(z.tuple([z.string(), z.string()])),
  body: z.string().nullish(),
});

const Request = z.discriminatedUnion("op", [RunRequest, FetchRequest]);

const enc = new TextEncoder();
const dec = new TextDecoder();
const answer = (value: unknown) => enc.encode(JSON.stringify(value));

function toBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

function fromBase64(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The last line a stopped run ends with: the shell's time limit, or a program's fuel (src/wasi/runner.ts). */
const LIMIT_LINE = /(^|\n)(toolshed: time limit reached|[^\n]*: killed: step limit reached)[^\n]*\n?$/;

/** A stderr without that closing line. */
function dropLimitLine(stderr: Uint8Array): Uint8Array {
  const text = dec.decode(stderr);
  const m = LIMIT_LINE.exec(text);
  return m ? enc.encode(text.slice(0, m.index + m[1]!.length)) : stderr;
}

/** Single quotes for bash, as Python's shlex.quote. */
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The host side of /dev/toolshed for one program run (its cwd, limits and call budget). */
export function programHost(ctx: ToolContext, io: ProgramIo, shell: Subshell): HostCall {
  let calls = 0;
  const limits = { timeoutMs: io.limits.timeoutMs, maxOutputBytes: io.limits.maxOutputBytes };

  async function run(req: z.infer<typeof RunRequest>): Promise<unknown> {
    let dir: string;
    try {
      dir = ctx.fs.resolve(io.cwd, req.cwd);
    } catch (e) {
      if (e instanceof PolicyDenied) return { error: `toolshed: denied (${e.rule}): ${e.message}`, errno: "EACCES", filename: req.cwd };
      throw e;
    }
    if (ctx.fs.stat(dir)?.kind !== "dir") return { error: "No such file or directory", errno: "ENOENT", filename: req.cwd };
    // The child's environment passes the same env rules as any other (LD_PRELOAD, secrets, ...).
    const env = { ...filterEnv(req.env).env, PWD: dir };
    if (req.program) {
      // exec finds the program or fails before anything runs (FileNotFoundError in Python).
      const found = await shell(`command -v -- ${quote(req.program)}`, { cwd: dir, env, limits });
      if (found.exitCode !== 0) return { error: "No such file or directory", errno: "ENOENT", filename: req.program };
    }
    const script = req.merge ? `{\n${req.script}\n} 2>&1` : req.script;
    const boundMs = req.timeout == null ? null : Math.ceil(req.timeout * 1000);
    const bounded = boundMs !== null && boundMs < limits.timeoutMs;
    const r = await shell(script, { cwd: dir, env, stdin: req.stdin ? fromBase64(req.stdin) : undefined, limits: bounded ? { ...limits, timeoutMs: boundMs } : limits });
    // Stopped by Python's own timeout (not the call's): the shell's time limit, or a program in it
    // out of fuel. Python raises TimeoutExpired; the session's closing line is left out.
    const stopped = bounded && (r.limit === "timeout" || (r.exitCode === 137 && LIMIT_LINE.test(dec.decode(r.stderr.subarray(-300)))));
    if (stopped) return { timedOut: true, stdout: toBase64(r.stdout), stderr: toBase64(dropLimitLine(r.stderr)) };
    return { status: r.exitCode, stdout: toBase64(r.stdout), stderr: toBase64(r.stderr) };
  }

  async function fetchUrl(req: z.infer<typeof FetchRequest>): Promise<unknown> {
    try {
      const r = await safeFetch(netOf(ctx), req.url, {
        method: req.method.toUpperCase(),
        headers: Object.fromEntries(req.headers),
        body: req.body ? fromBase64(req.body) : undefined,
        followRedirects: true,
        timeoutMs: io.limits.timeoutMs,
        maxBytes: MAX_FETCH_BYTES,
      });
      if (r.truncated)
        return {
          error: `the response body is larger than ${MAX_FETCH_BYTES} bytes, the most a program may fetch at once; save it with curl -o FILE from bash and read the file`,
        };
      return { status: r.status, reason: r.statusText, url: r.url, headers: [...r.headers], body: toBase64(r.body) };
    } catch (e) {
      return programFetchFailure(e, (d) => ctx.reportDenial?.(d));
    }
  }

  return async (bytes) => {
    let parsed: z.infer<typeof Request>;
    try {
      const r = Request.safeParse(JSON.parse(dec.decode(bytes)));
      if (!r.success) return answer({ error: `malformed request to /dev/toolshed: ${r.error.issues[0]?.message ?? "invalid"}` });
      parsed = r.data;
    } catch {
      return answer({ error: "malformed request to /dev/toolshed: not JSON" });
    }
    if (++calls > MAX_CALLS) return answer({ error: `a program may ask the session for at most ${MAX_CALLS} commands and fetches per run` });
    return answer(parsed.op === "run" ? await run(parsed) : await fetchUrl(parsed));
  };
}
