// Input builtins: read, mapfile/readarray, getopts.
import type { Fd, Shell } from "../interp/shell";
import { decode, encode } from "../bytes";
import { berr, parseOpts, NAME_RE } from "./io";

export async function read(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let raw = false;
  let delim = "\n";
  let arrName: string | undefined;
  let nchars: number | undefined;
  let exact = false;
  let prompt = "";
  let timeout: string | undefined;
  let fd = 0;
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      i++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    for (let k = 1; k < a.length; k++) {
      const c = a[k];
      const val = () => {
        const v = a.slice(k + 1) || argv[++i];
        k = a.length;
        return v ?? "";
      };
      switch (c) {
        case "r":
          raw = true;
          break;
        case "s":
        case "e":
          break;
        case "d":
          delim = val();
          delim = delim === "" ? "\0" : delim[0];
          break;
        case "a":
          arrName = val();
          break;
        case "n": {
          const v = val();
          if (!/^\d+$/.test(v)) {
            await berr(sh, fds, "read", `${v}: invalid number`);
            return 1;
          }
          nchars = parseInt(v, 10);
          break;
        }
        case "N":
          nchars = parseInt(val(), 10);
          exact = true;
          break;
        case "p":
          prompt = val();
          break;
        case "t":
          timeout = val();
          break;
        case "u":
          fd = parseInt(val(), 10);
          break;
        default:
          await berr(sh, fds, "read", `-${c}: invalid option`);
          return 2;
      }
    }
  }
  const names = argv.slice(i);
  for (const n of names) {
    if (!NAME_RE.test(n)) {
      await berr(sh, fds, "read", `\`${n}': not a valid identifier`);
      return 1;
    }
  }
  // the prompt goes out only when reading from a terminal, which input here never is
  void prompt;
  const inp = fds[fd]?.r;
  if (!inp) {
    await berr(sh, fds, "read", `${fd}: invalid file descriptor: Bad file descriptor`);
    return 1;
  }
  // -t 0 only asks whether input is readable; it reads nothing
  if (timeout !== undefined && /^0*(\.0*)?$/.test(timeout)) return 0;
  // read bytes up to the delimiter (or n chars), handling backslash-newline when not raw
  let line = "";
  let eof = false;
  const dcode = delim === "\0" ? 0 : delim.charCodeAt(0);
  for (;;) {
    if (nchars !== undefined) {
      // character at a time; without -r a backslash escapes the next char and is kept
      // (removed later with the other escapes) but does not count toward -n
      let buf: string[] = [];
      let got = "";
      let count = 0;
      const next = async (): Promise<string | null> => {
        if (!buf.length) {
          const c = await inp.read();
          if (!c) return null;
          buf = [...decode(c)];
        }
        return buf.shift()!;
      };
      while (count < nchars) {
        const ch = await next();
        if (ch === null) {
          eof = true;
          break;
        }
        if (!exact && ch === delim) break;
        if (!raw && !exact && ch === "\\") {
          const e = await next();
          if (e === null) {
            eof = true;
            break;
          }
          if (e === "\n") continue;
          got += ch + e;
          count++;
          continue;
        }
        got += ch;
        count++;
      }
      if (buf.length) inp.unread(encode(buf.join("")));
      line = got;
      break;
    }
    const r = await inp.readUntil(dcode);
    if (!r) {
      eof = true;
      break;
    }
    // bash drops NUL bytes from what read stores (with -d '' NUL is the delimiter)
    let s = decode(r.data);
    if (r.hitDelim) s = s.slice(0, -1);
    else eof = true;
    if (dcode !== 0) s = s.replace(/\0/g, "");
    if (!raw && /(^|[^\\])(\\\\)*\\$/.test(s) && r.hitDelim) {
      // an escaped delimiter does not end the read: backslash-newline vanishes, another
      // delimiter stays escaped (the backslash goes with the other escapes below)
      line += delim === "\n" ? s.slice(0, -1) : s + delim;
      continue;
    }
    line += s;
    break;
  }
  if (eof && line === "") {
    if (arrName) sh.vars.setArray(arrName, []);
    else for (const n of names.length ? names : ["REPLY"]) sh.vars.set(n, "");
    return 1;
  }
  const unbackslash = (s: string) => (raw ? s : s.replace(/\\(.)/gs, (_, c: string) => (c === "\n" ? "" : c)).replace(/\\$/, ""));
  if (exact) {
    sh.vars.set(names[0] ?? "REPLY", line);
    for (const n of names.slice(1)) sh.vars.set(n, "");
    return eof ? 1 : 0;
  }
  if (!names.length && !arrName) {
    sh.vars.set("REPLY", unbackslash(line));
    return eof ? 1 : 0;
  }
  const ifsV = sh.vars.get("IFS");
  const ifs = ifsV === undefined ? " \t\n" : ifsV;
  const fields = splitRead(line, ifs, arrName ? Infinity : names.length, raw);
  if (arrName) {
    sh.vars.setArray(arrName, fields.map(unbackslash));
    return eof ? 1 : 0;
  }
  names.forEach((n, k) => sh.vars.set(n, unbackslash(fields[k] ?? "")));
  return eof ? 1 : 0;
}

/** IFS splitting for read: the last variable takes the rest of the line. */
function splitRead(s: string, ifs: string, max: number, raw: boolean): string[] {
  if (ifs === "") return s === "" ? [] : [s];
  const isWs = (c: string) => ifs.includes(c) && (c === " " || c === "\t" || c === "\n");
  const isDelim = (c: string) => ifs.includes(c);
  const out: string[] = [];
  let i = 0;
  while (i < s.length && isWs(s[i])) i++;
  while (i < s.length) {
    if (out.length === max - 1) {
      // rest of line, minus trailing IFS whitespace
      let rest = s.slice(i);
      let e = rest.length;
      while (e > 0 && isWs(rest[e - 1]) && !(e > 1 && rest[e - 2] === "\\" && !raw)) e--;
      rest = rest.slice(0, e);
      // a single trailing non-whitespace delimiter is dropped
      if (rest.length && isDelim(rest[rest.length - 1]) && !isWs(rest[rest.length - 1])) {
        const inner = rest.slice(0, -1);
        if (![...inner].some((c) => isDelim(c))) rest = inner;
      }
      out.push(rest);
      return out;
    }
    let f = "";
    while (i < s.length && !isDelim(s[i])) {
      if (!raw && s[i] === "\\" && i + 1 < s.length) {
        f += s[i] + s[i + 1];
        i += 2;
        continue;
      }
      f += s[i++];
    }
    out.push(f);
    // skip one delimiter with surrounding whitespace
    while (i < s.length && isWs(s[i])) i++;
    if (i < s.length && isDelim(s[i]) && !isWs(s[i])) {
      i++;
      while (i < s.length && isWs(s[i])) i++;
    }
  }
  return out;
}

export async function mapfile(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let trim = false;
  let delim = "\n";
  let count = 0;
  let origin = 0;
  let skip = 0;
  let fd = 0;
  const parsed = await parseOpts(
    sh,
    fds,
    argv,
    "d:n:O:s:u:C:c:t",
    "mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]",
  );
  if (!parsed) return 2;
  for (const [c, v] of parsed.opts) {
    switch (c) {
      case "t":
        trim = true;
        break;
      case "d":
        delim = v || "\0";
        break;
      case "n":
        count = parseInt(v, 10);
        break;
      case "O":
        origin = parseInt(v, 10);
        break;
      case "s":
        skip = parseInt(v, 10);
        break;
      case "u":
        fd = parseInt(v, 10);
        break;
    }
  }
  const i = parsed.i;
  const name = argv[i] ?? "MAPFILE";
  const inp = fds[fd]?.r;
  if (!inp) return 1;
  const arr: string[] = origin ? ((sh.vars.lookup(name)?.value as string[] | undefined)?.slice?.() ?? []) : [];
  let n = 0;
  let idx = origin;
  for (;;) {
    if (count && n >= count) break;
    const r = await inp.readUntil(delim === "\0" ? 0 : delim.charCodeAt(0));
    if (!r) break;
    let s = decode(r.data);
    if (skip > 0) {
      skip--;
      continue;
    }
    if (trim && r.hitDelim) s = s.slice(0, -1);
    arr[idx++] = s;
    n++;
  }
  sh.vars.setArray(name, arr);
  return 0;
}

export async function getopts(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const spec = argv[1];
  const name = argv[2];
  if (spec === undefined || name === undefined) {
    await berr(sh, fds, "getopts", "usage: getopts optstring name [arg ...]");
    return 2;
  }
  const args = argv.length > 3 ? argv.slice(3) : sh.positional;
  const silent = spec.startsWith(":");
  const optSpec = silent ? spec.slice(1) : spec;
  let optind = parseInt(sh.vars.get("OPTIND") ?? "1", 10) || 1;
  // sub-position inside a clustered argument like -abc
  const st = sh as unknown as { _optpos?: number; _optindSeen?: number };
  if (st._optindSeen !== optind) st._optpos = 1;
  let pos = st._optpos ?? 1;
  const finish = () => {
    sh.vars.set(name, "?");
    sh.vars.unset("OPTARG");
    sh.vars.set("OPTIND", String(optind));
    st._optindSeen = optind;
    return 1;
  };
  const arg = args[optind - 1];
  if (arg === undefined || !arg.startsWith("-") || arg === "-") return finish();
  if (arg === "--") {
    optind++;
    return finish();
  }
  const c = arg[pos];
  pos++;
  let nextArg = false;
  if (pos >= arg.length) {
    nextArg = true;
  }
  const k = optSpec.indexOf(c);
  sh.vars.unset("OPTARG");
  let ret = 0;
  if (k < 0 || c === ":") {
    if (silent) {
      sh.vars.set(name, "?");
      sh.vars.set("OPTARG", c);
    } else {
      await getoptsErr(sh, fds, `illegal option -- ${c}`);
      sh.vars.set(name, "?");
    }
  } else if (optSpec[k + 1] === ":") {
    if (!nextArg) {
      sh.vars.set("OPTARG", arg.slice(pos));
      nextArg = true;
    } else {
      const v = args[optind];
      if (v === undefined) {
        if (silent) {
          sh.vars.set(name, ":");
          sh.vars.set("OPTARG", c);
        } else {
          await getoptsErr(sh, fds, `option requires an argument -- ${c}`);
          sh.vars.set(name, "?");
        }
        optind++;
        pos = 1;
        sh.vars.set("OPTIND", String(optind + (nextArg ? 0 : 0)));
        st._optindSeen = optind;
        st._optpos = 1;
        return 0;
      }
      sh.vars.set("OPTARG", v);
      optind++;
    }
    sh.vars.set(name, c);
  } else sh.vars.set(name, c);
  if (nextArg) {
    optind++;
    pos = 1;
  }
  sh.vars.set("OPTIND", String(optind));
  st._optindSeen = optind;
  st._optpos = pos;
  return ret;
}

/** getopts reports a bad option as getopt(3) does: `$0: message`, with no line number. */
async function getoptsErr(sh: Shell, fds: Fd[], msg: string): Promise<void> {
  // OPTERR=0 silences getopts' own messages, as a leading ':' in the option string does
  if (sh.vars.get("OPTERR") === "0") return;
  await fds[2]?.w?.write(encode(`${sh.arg0}: ${msg}\n`)).catch(() => {});
}
