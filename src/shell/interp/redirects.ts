// Redirections: opening the files, here-documents and fd copies a command's `<`, `>`, `>&`, ...
// name, for as long as the command runs (or for good, under `exec`). Every path is asked of the
// host's deny rules first; errors are bash's messages on the command's stderr.
import type { ByteWriter } from "../host";
import { EpipeError } from "../host";
import type { Redir } from "../syntax/ast";
import { litText } from "../syntax/ast";
import { AbortLine, ExpandError, expandFields, expandString } from "../expand/word";
import { LimitError, MAX_FILE_OUTPUT_BYTES } from "./limits";
import type { Maybe } from "./maybe";
import { getUmask } from "./options";
import type { Fd, Shell } from "./shell";
import { BytesReader, EMPTY, InStream, NullWriter, Pipe } from "./streams";
import { encode } from "../bytes";

export function withRedirs(sh: Shell, redirs: Redir[], fds: Fd[], body: (fds: Fd[]) => Maybe<number>, permanent = false): Maybe<number> {
  if (!redirs.length) return body(fds);
  return withOpenRedirs(sh, redirs, fds, body, permanent);
}

async function withOpenRedirs(sh: Shell, redirs: Redir[], fds: Fd[], body: (fds: Fd[]) => Maybe<number>, permanent: boolean): Promise<number> {
  const mark = sh.pendingClose.length;
  try {
    return await withRedirsInner(sh, redirs, fds, body, permanent);
  } finally {
    // writers into >(...) close when the command that opened them is done
    if (!permanent) for (const w of sh.pendingClose.splice(mark)) w.close();
  }
}

async function withRedirsInner(sh: Shell, redirs: Redir[], fds: Fd[], body: (fds: Fd[]) => Maybe<number>, permanent: boolean): Promise<number> {
  const nfds = permanent ? fds : fds.slice();
  for (const r of redirs) {
    const ok = await applyRedir(sh, r, nfds, permanent);
    if (!ok) {
      sh.redirFailed = true;
      return 1;
    }
  }
  if (permanent) {
    sh.fds = nfds;
    return 0;
  }
  return body(nfds);
}

/** Opens a file for reading honouring /dev/* names; null (after a message) on error. */
export function readFileForRedirect(sh: Shell, path: string, fds: Fd[]): Uint8Array | null {
  const pf = sh.shared.procFiles.get(path);
  if (pf instanceof Uint8Array) return pf;
  if (path === "/dev/null") return EMPTY;
  if (refusedRedirect(sh, path, fds)) return null;
  try {
    const abs = sh.host.resolvePath(sh.cwd, path);
    const refused = sh.host.checkRead?.(abs);
    if (refused) throw { message: refused.reason, denied: refused };
    const st = sh.host.fs.stat(abs);
    if (!st) {
      sh.errSync(fds, `${path}: No such file or directory`);
      return null;
    }
    if (st.type === "dir") {
      sh.errSync(fds, `${path}: Is a directory`);
      return null;
    }
    return sh.host.fs.readFile(abs);
  } catch (e) {
    pathError(sh, fds, path, e);
    return null;
  }
}

/** The modification time (ns) of a file opened with `<`, which fstat on its descriptor reports; 0 when it has none. */
function redirectMtimeNs(sh: Shell, path: string): bigint {
  if (path === "/dev/null" || sh.shared.procFiles.has(path)) return 0n;
  try {
    const st = sh.host.fs.stat(sh.host.resolvePath(sh.cwd, path));
    return st ? BigInt(Math.floor(st.mtimeMs)) * 1_000_000n : 0n;
  } catch {
    return 0n;
  }
}

/** Asks the deny rules about a redirection's target (`> .env`); true (after saying so) when refused. */
function refusedRedirect(sh: Shell, path: string, fds: Fd[]): boolean {
  const denial = sh.host.checkRedirect?.(path, sh.cwd);
  if (denial) pathError(sh, fds, path, { message: denial.reason, denied: denial });
  return !!denial;
}

export function pathError(sh: Shell, fds: Fd[], path: string, e: unknown): void {
  const pe = e as { message?: string; denied?: { rule: string; reason: string } };
  if (pe && pe.denied) {
    if (!sh.shared.denied) sh.shared.denied = pe.denied;
    void fds[2]?.w?.write(encode(`toolshed: denied (${pe.denied.rule}): ${pe.denied.reason}\n`)).catch(() => {});
    return;
  }
  if (e instanceof LimitError) throw e;
  sh.errSync(fds, `${path}: ${pe?.message ?? String(e)}`);
}

/** A writer that appends to a file in the workspace. */
function fileWriter(sh: Shell, path: string, append: boolean, fds: Fd[], clobberCheck: boolean): ByteWriter | null {
  if (path === "/dev/null") return new NullWriter();
  if (path === "/dev/stdout") return fds[1]?.w ?? null;
  if (path === "/dev/stderr") return fds[2]?.w ?? null;
  const m = /^\/dev\/fd\/(\d+)$/.exec(path);
  if (m) {
    const pf = sh.shared.procFiles.get(path);
    if (pf instanceof Pipe) {
      sh.pendingClose.push(pf.writer);
      return pf.writer;
    }
    return fds[+m[1]]?.w ?? null;
  }
  if (refusedRedirect(sh, path, fds)) return null;
  let abs: string;
  try {
    abs = sh.host.resolvePath(sh.cwd, path, true, true);
  } catch (e) {
    pathError(sh, fds, path, e);
    return null;
  }
  const fs = sh.host.fs;
  // stat may be refused too (a protected file): every step reports a denial as a path error
  try {
    const st = fs.stat(abs);
    if (st && st.type === "dir") {
      sh.errSync(fds, `${path}: Is a directory`);
      return null;
    }
    const parent = abs.slice(0, abs.lastIndexOf("/")) || "/";
    const pst = fs.stat(parent);
    if (!pst || pst.type !== "dir") {
      sh.errSync(fds, `${path}: No such file or directory`);
      return null;
    }
    if (clobberCheck && st && sh.opts.noclobber) {
      sh.errSync(fds, `${path}: cannot overwrite existing file`);
      return null;
    }
    if (!append || !st) fs.writeFile(abs, EMPTY, { append: false, mode: 0o666 & ~getUmask(sh) });
  } catch (e) {
    pathError(sh, fds, path, e);
    return null;
  }
  const budget = sh.shared.budget;
  const writeSync = (data: Uint8Array) => {
    budget.outputBytes += data.length;
    if (budget.outputBytes > MAX_FILE_OUTPUT_BYTES) throw new LimitError("output", `toolshed: file output limit (${MAX_FILE_OUTPUT_BYTES} bytes) exceeded`);
    try {
      fs.writeFile(abs, data, { append: true });
    } catch (e) {
      // a refusal after the file was opened (appending needs read access to a protected
      // file once earlier output was committed): report it and stop the writer
      if ((e as { denied?: unknown } | null)?.denied) {
        pathError(sh, fds, path, e);
        throw new EpipeError();
      }
      throw e;
    }
  };
  return { write: async (data: Uint8Array) => writeSync(data), writeSync };
}

/** `exec N>&-`: the shell's own fd N closes; a coprocess's input pipe closes with its last fd, so
 * the job reading it sees end of input. */
function closeFd(sh: Shell, fds: Fd[], n: number, permanent: boolean): void {
  const w = fds[n]?.w;
  delete fds[n];
  const pipe = permanent && w ? sh.shared.coprocWriters.find((c) => c === w) : undefined;
  if (pipe && !fds.some((f) => f?.w === w)) pipe.close();
}

async function applyRedir(sh: Shell, r: Redir, fds: Fd[], permanent = false): Promise<boolean> {
  const op = r.op;
  let fd = r.fd ?? (op.startsWith("<") ? 0 : 1);
  if (op === "<<" || op === "<<-") {
    const body = r.heredocQuoted ? (r.target.parts[0] as { value: string }).value : await expandString(sh, r.target);
    fds[fd] = { r: new InStream(new BytesReader(encode(body))) };
    return true;
  }
  if (op === "<<<") {
    const target = await expandString(sh, r.target);
    fds[fd] = { r: new InStream(new BytesReader(encode(target + "\n"))) };
    return true;
  }
  // the target is split and globbed; it must come out as exactly one word
  const words: string[] = [];
  try {
    await expandFields(sh, r.target, true, words);
  } catch (e) {
    if (e instanceof AbortLine && !(e instanceof ExpandError)) {
      await sh.err(fds, e.message);
      return false;
    }
    throw e;
  }
  if (words.length !== 1) {
    await sh.err(fds, `${litText(r.target) ?? "$" + "word"}: ambiguous redirect`);
    return false;
  }
  const target = words[0];
  if (r.varFd) {
    if (op === ">&" || op === "<&") {
      if (target === "-") {
        const sub = /^(\w+)\[(.+)\]$/.exec(r.varFd);
        const held = sub ? sh.vars.resolve(sub[1]).v?.value : undefined;
        const n = Number(sub ? (Array.isArray(held) ? held[Number(sub[2])] : held instanceof Map ? held.get(sub[2]) : undefined) : sh.vars.get(r.varFd));
        closeFd(sh, fds, n, permanent);
        return true;
      }
    }
    let n = 10;
    while (fds[n]) n++;
    const sub = /^(\w+)\[(.+)\]$/.exec(r.varFd);
    if (sub) sh.vars.setIndex(sub[1], sub[2], String(n));
    else sh.vars.set(r.varFd, String(n));
    fd = n;
  }
  switch (op) {
    case ">":
    case ">|":
    case ">>":
    case "&>":
    case "&>>": {
      const w = fileWriter(sh, target, op.endsWith(">>"), fds, op === ">" || op === "&>");
      if (!w) return false;
      fds[fd] = { w };
      if (op.startsWith("&")) {
        fds[1] = { w };
        fds[2] = { w };
      }
      return true;
    }
    case "<": {
      const dm = /^\/dev\/(stdin|fd\/(\d+))$/.exec(target);
      if (dm) {
        const pf = sh.shared.procFiles.get(target);
        if (pf instanceof Uint8Array) {
          fds[fd] = { r: new InStream(new BytesReader(pf)) };
          return true;
        }
        const src = dm[1] === "stdin" ? 0 : +dm[2];
        fds[fd] = { r: fds[src]?.r ?? new InStream(null) };
        return true;
      }
      const data = readFileForRedirect(sh, target, fds);
      if (!data) return false;
      fds[fd] = { r: new InStream(new BytesReader(data, true, redirectMtimeNs(sh, target)), target === "/dev/null") };
      return true;
    }
    case "<>": {
      const data = target === "/dev/null" ? EMPTY : readFileForRedirect(sh, target, fds);
      if (!data) {
        const w = fileWriter(sh, target, true, fds, false);
        if (!w) return false;
        fds[fd] = { w, r: new InStream(null) };
        return true;
      }
      const w = fileWriter(sh, target, true, fds, false);
      fds[fd] = { r: new InStream(new BytesReader(data)), w: w ?? undefined };
      return true;
    }
    case ">&":
    case "<&": {
      if (target === "-") {
        closeFd(sh, fds, fd, permanent);
        return true;
      }
      let t = target;
      let move = false;
      if (t.endsWith("-")) {
        move = true;
        t = t.slice(0, -1);
      }
      if (/^\d+$/.test(t)) {
        const src = fds[+t];
        if (!src) {
          await sh.err(fds, `${t}: Bad file descriptor`);
          return false;
        }
        fds[fd] = src;
        if (move) delete fds[+t];
        return true;
      }
      if (op === ">&" && r.fd === undefined) {
        const w = fileWriter(sh, target, false, fds, true);
        if (!w) return false;
        fds[1] = { w };
        fds[2] = { w };
        return true;
      }
      await sh.err(fds, `${target}: ambiguous redirect`);
      return false;
    }
  }
  return false;
}
