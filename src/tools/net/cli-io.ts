import { PolicyDenied } from "../../policy/denied";
import { EpipeError, type ByteWriter, type ProgramIo } from "../../shell/host";
import { isVfsError } from "../../vfs/errors";
import type { ToolContext } from "../types";

/** Exit status of a command the policy refused, as everywhere in the shell. */
export const EXIT_DENIED = 126;

const enc = new TextEncoder();
export const say = (w: ByteWriter, text: string): Promise<void> => w.write(enc.encode(text)).catch(() => undefined);

/** Reports a URL refusal: the reason on stderr, `denied` in the tool result. */
export async function reportUrlDenial(ctx: ToolContext, io: ProgramIo, name: string, e: PolicyDenied): Promise<number> {
  ctx.reportDenial?.(e.denial);
  await say(io.stderr, `${name}: toolshed: denied (${e.rule}): ${e.message}\n`);
  return EXIT_DENIED;
}

/**
 * Writes a body to stdout; false when the reader has gone (`curl | head`), which curl and
 * wget report as a write failure.
 */
export async function writeOut(io: ProgramIo, bytes: Uint8Array): Promise<boolean> {
  if (!bytes.length) return true;
  try {
    await io.stdout.write(bytes);
    return true;
  } catch (e) {
    if (e instanceof EpipeError) return false;
    throw e;
  }
}

/** Writes a body into the workspace (policy-checked); the error text when that fails. */
export function saveFile(ctx: ToolContext, cwd: string, path: string, bytes: Uint8Array, createParents = false): string | null {
  try {
    ctx.fs.writeFile(ctx.fs.resolve(cwd, path), bytes, { createParents });
    return null;
  } catch (e) {
    if (e instanceof PolicyDenied) return `${path}: denied (${e.rule}): ${e.message}`;
    if (isVfsError(e)) return `${path}: ${e.description}`;
    throw e;
  }
}

/** Reads a workspace file for `-d @file`, `-F f=@file`, `--data-urlencode @file`. */
export function loadFile(ctx: ToolContext, cwd: string, path: string): Uint8Array | string {
  try {
    const abs = ctx.fs.resolve(cwd, path);
    return ctx.fs.readFile(abs);
  } catch (e) {
    if (e instanceof PolicyDenied) return `${path}: denied (${e.rule}): ${e.message}`;
    if (isVfsError(e)) return `${path}: ${e.description}`;
    throw e;
  }
}

/** A response's status line and headers as HTTP/1.1 prints them (`curl -i`, `wget -S`). */
export function headerBlock(status: number, statusText: string, headers: Headers, indent = ""): string {
  let out = `${indent}HTTP/1.1 ${status}${statusText ? ` ${statusText}` : ""}\r\n`;
  for (const [k, v] of headers) out += `${indent}${k}: ${v}\r\n`;
  return out;
}

/**
 * The last path segment of a URL, as `curl -O` names the saved file: left percent-encoded, so
 * an encoded `/` cannot make it a path.
 */
export function remoteName(url: string, fallback: string): string {
  const path = new URL(url).pathname;
  const last = path.slice(path.lastIndexOf("/") + 1);
  return last && last !== "." && last !== ".." ? last : fallback;
}

/** `host:8080/x` has no scheme (a port follows the colon); `ftp://x` and `data:...` have one. */
export const hasScheme = (raw: string): boolean => /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(raw);
