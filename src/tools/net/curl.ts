import { NetError } from "../../net/errors";
import { basicAuth, safeFetch, type FetchResult } from "../../net/fetch";
import { PolicyDenied } from "../../policy/denied";
import type { ProgramIo } from "../../shell/host";
import type { ToolContext } from "../types";
import { hasScheme, headerBlock, loadFile, remoteName, reportUrlDenial, saveFile, say, writeOut } from "./cli-io";
import { parseCurlArgs, type CurlArgs } from "./curl-args";
import { netOf } from "./web-fetch";
import { LIMITS } from "../../limits";

/** Largest body curl reads into a file; stdout is bounded by the shell's output limit. */
const MAX_FILE_BYTES = LIMITS.downloadBytes;
const enc = new TextEncoder();
const dec = new TextDecoder();

/** curl's exit codes and messages for what the fetch path reports. */
const EXIT = { usage: 2, badUrl: 3, dns: 6, connect: 7, http: 22, write: 23, read: 26, timeout: 28, redirects: 47, tooLarge: 63 } as const;

interface Body {
  bytes?: Uint8Array;
  contentType?: string;
}

/** -d, --data-*, -F: the request body and its type, or an error message for exit 26. */
async function requestBody(args: CurlArgs, ctx: ToolContext, cwd: string): Promise<Body | string> {
  if (args.form.length) {
    const form = new FormData();
    for (const f of args.form) {
      const eq = f.indexOf("=");
      if (eq <= 0) return `-F '${f}' is not name=value`;
      const name = f.slice(0, eq);
      const value = f.slice(eq + 1);
      if (value.startsWith("@") || value.startsWith("<")) {
        const path = value.slice(1).split(";")[0]!;
        const data = loadFile(ctx, cwd, path);
        if (typeof data === "string") return data;
        if (value.startsWith("@")) form.append(name, new Blob([data]), path.slice(path.lastIndexOf("/") + 1));
        else form.append(name, dec.decode(data));
      } else {
        form.append(name, value);
      }
    }
    const res = new Response(form);
    return { bytes: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get("content-type") ?? undefined };
  }
  if (!args.data.length) return {};
  const parts: string[] = [];
  for (const d of args.data) {
    if (d.kind === "urlencode") {
      const m = /^([^=@]*)([=@])([\s\S]*)$/.exec(d.value);
      const [name, sep, rest] = m ? [m[1]!, m[2]!, m[3]!] : ["", "", d.value];
      let content = rest;
      if (sep === "@") {
        const data = loadFile(ctx, cwd, rest);
        if (typeof data === "string") return data;
        content = dec.decode(data);
      }
      parts.push(name ? `${name}=${encodeURIComponent(content)}` : encodeURIComponent(content));
    } else if (d.kind !== "raw" && d.value.startsWith("@")) {
      const data = loadFile(ctx, cwd, d.value.slice(1));
      if (typeof data === "string") return data;
      // -d @file drops carriage returns and newlines; --data-binary keeps every byte.
      parts.push(d.kind === "binary" ? dec.decode(data) : dec.decode(data).replace(/[\r\n]/g, ""));
    } else {
      parts.push(d.value);
    }
  }
  return { bytes: enc.encode(parts.join("&")), contentType: "application/x-www-form-urlencoded" };
}

function writeOutText(format: string, r: FetchResult, bytes: number, ms: number): string {
  const vars: Record<string, string> = {
    http_code: String(r.status).padStart(3, "0"),
    response_code: String(r.status),
    url_effective: r.url,
    content_type: r.headers.get("content-type") ?? "",
    size_download: String(bytes),
    num_redirects: String(r.hops.length - 1),
    redirect_url: r.headers.get("location") ?? "",
    time_total: (ms / 1000).toFixed(6),
  };
  return format.replace(/%\{(\w+)\}/g, (m, k: string) => vars[k] ?? m).replace(/\\([nrt\\])/g, (_, c: string) => ({ n: "\n", r: "\r", t: "\t", "\\": "\\" })[c]!);
}

/** A fetch failure as curl prints and exits it. */
function failure(e: NetError, maxRedirs: number, timeoutMs: number): [number, string] {
  switch (e.code) {
    case "dns":
      return [EXIT.dns, e.message.replace(/\.$/, "")];
    case "connect":
      return [EXIT.connect, e.message.replace(/\.$/, "")];
    case "timeout":
      return [EXIT.timeout, `Operation timed out after ${timeoutMs} milliseconds`];
    case "too_many_redirects":
      return [EXIT.redirects, `Maximum (${maxRedirs}) redirects followed`];
    case "bad_redirect":
      return [EXIT.badUrl, e.message];
  }
}

/**
 * `curl`, run by the host: every URL goes through the one fetch path and URL policy (each
 * redirect hop judged). Bodies go to stdout (down a pipe) or into workspace files.
 */
export async function curl(argv: string[], io: ProgramIo, ctx: ToolContext): Promise<number> {
  const started = Date.now();
  const parsed = parseCurlArgs(argv.slice(1));
  if (typeof parsed === "string") {
    await say(io.stderr, `curl: ${parsed}\ncurl: try 'curl --help' for more information\n`);
    return EXIT.usage;
  }
  const args = parsed;
  const showErrors = !args.silent || args.showError;
  const complain = async (code: number, message: string) => {
    if (showErrors) await say(io.stderr, `curl: (${code}) ${message}\n`);
    return code;
  };
  if (!args.urls.length) return complain(EXIT.usage, "no URL specified");
  const body = await requestBody(args, ctx, io.cwd);
  if (typeof body === "string") return complain(EXIT.read, `Failed to open/read local data: ${body}`);
  const method = args.method ?? (args.head ? "HEAD" : body.bytes ? "POST" : "GET");
  const headers: Record<string, string> = { "user-agent": args.userAgent ?? "curl/8.5.0", accept: "*/*" };
  if (args.referer) headers["referer"] = args.referer;
  if (args.user !== undefined) headers["authorization"] = basicAuth(args.user.includes(":") ? args.user : `${args.user}:`);
  if (body.contentType) headers["content-type"] = body.contentType;
  for (const [k, v] of args.headers) {
    if (v === "") delete headers[k.toLowerCase()];
    else headers[k.toLowerCase()] = v;
  }
  const timeoutMs = Math.max(1, Math.min(io.limits.timeoutMs, args.maxTimeS !== undefined && args.maxTimeS > 0 ? args.maxTimeS * 1000 : Infinity));
  const maxRedirs = args.maxRedirs === undefined || args.maxRedirs < 0 || args.maxRedirs > 5 ? 5 : args.maxRedirs;

  let status = 0;
  for (const [n, raw] of args.urls.entries()) {
    // As curl does, a URL without a scheme is taken as http://.
    const url = hasScheme(raw) ? raw : `http://${raw}`;
    const output = args.outputs[n] === "/dev/stdout" ? "-" : args.outputs[n];
    const discard = output === "/dev/null";
    const toFile = output !== undefined && output !== "-" && !discard;
    let r: FetchResult;
    try {
      r = await safeFetch(netOf(ctx), url, {
        method,
        headers,
        body: body.bytes,
        followRedirects: args.location,
        maxRedirects: maxRedirs,
        timeoutMs,
        maxBytes: toFile ? MAX_FILE_BYTES : io.limits.maxOutputBytes,
      });
    } catch (e) {
      if (e instanceof PolicyDenied) {
        if (e.rule === "url.syntax") {
          status = await complain(EXIT.badUrl, `URL rejected: ${e.message}`);
          continue;
        }
        return reportUrlDenial(ctx, io, "curl", e);
      }
      if (e instanceof NetError) {
        const [code, message] = failure(e, maxRedirs, timeoutMs);
        status = await complain(code, message);
        continue;
      }
      throw e;
    }
    if (r.truncated) {
      status = await complain(
        EXIT.tooLarge,
        `Exceeded the maximum allowed file size (${toFile ? MAX_FILE_BYTES : io.limits.maxOutputBytes}) with ${r.body.length} bytes`,
      );
      continue;
    }
    if (r.status >= 400 && args.fail !== "no") {
      if (args.fail === "with-body" && !(await writeOut(io, r.body))) return EXIT.write;
      status = await complain(EXIT.http, `The requested URL returned error: ${r.status}`);
      continue;
    }
    let head = "";
    if (args.include || args.head) {
      const statuses = r.hops;
      r.redirectHeaders.forEach((h, i) => (head += `${headerBlock(statuses[i]!.status, "", h)}\r\n`));
      head += `${headerBlock(r.status, r.statusText, r.headers)}\r\n`;
    }
    const bytes = args.head ? new Uint8Array(0) : r.body;
    if (toFile) {
      const name = typeof output === "string" ? output : remoteName(r.url, "");
      if (!name) {
        status = await complain(EXIT.write, "Remote file name has no length");
        continue;
      }
      const payload = head ? new Uint8Array([...enc.encode(head), ...bytes]) : bytes;
      const err = saveFile(ctx, io.cwd, name, payload);
      if (err) {
        status = await complain(EXIT.write, `Failed writing body: ${err}`);
        continue;
      }
    } else if (!discard) {
      if (head && !(await writeOut(io, enc.encode(head)))) return EXIT.write;
      if (!(await writeOut(io, bytes))) return EXIT.write;
    }
    if (args.writeOut !== undefined && !(await writeOut(io, enc.encode(writeOutText(args.writeOut, r, r.body.length, Date.now() - started))))) {
      return EXIT.write;
    }
  }
  return status;
}
