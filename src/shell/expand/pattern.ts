// Shell patterns (glob, extglob, bracket classes) compiled to JS regular expressions.
// In a pattern string a backslash makes the next character literal; expansion escapes
// quoted text that way so "*" stays literal.

/** POSIX character classes as JS class ranges (bracket expressions here and in [[ =~ ]]). */
export const CLASSES: Record<string, string> = {
  alpha: "a-zA-Z",
  digit: "0-9",
  alnum: "a-zA-Z0-9",
  upper: "A-Z",
  lower: "a-z",
  space: " \\t\\n\\r\\f\\v",
  blank: " \\t",
  punct: "!-\\/:-@\\[-`{-~",
  xdigit: "0-9A-Fa-f",
  cntrl: "\\x00-\\x1f\\x7f",
  print: "\\x20-\\x7e",
  graph: "\\x21-\\x7e",
  word: "\\w",
};

const reCache = new Map<string, RegExp>();

export function hasGlobMeta(p: string, extglob = true): boolean {
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "*" || c === "?") return true;
    if (c === "[" && p.indexOf("]", i + 2) > 0) return true;
    if (extglob && "@+!".includes(c) && p[i + 1] === "(") return true;
  }
  return false;
}

/** Removes pattern escapes: the literal text a non-matching pattern stands for. */
export function unescapePattern(p: string): string {
  if (!p.includes("\\")) return p;
  return p.replace(/\\(.)/gs, "$1").replace(/\\$/, "\\");
}

export function escapePattern(s: string): string {
  return s.replace(/[\\*?[\]@!+()|]/g, "\\$&");
}

export interface PatternOpts {
  extglob?: boolean;
  nocase?: boolean;
  /** For pathname globbing: wildcards never match "/". */
  pathname?: boolean;
}

function patternSource(p: string, opts: PatternOpts = {}): string {
  const any = opts.pathname ? "[^/]" : "[\\s\\S]";
  let out = "";
  let i = 0;
  const n = p.length;
  const group = (start: number): { body: string[]; end: number } => {
    // split a (...) group on top-level | and return the alternatives' raw text
    let depth = 0;
    const alts: string[] = [];
    let cur = "";
    for (let j = start; j < n; j++) {
      const c = p[j];
      if (c === "\\") {
        cur += c + (p[j + 1] ?? "");
        j++;
        continue;
      }
      if (c === "(") depth++;
      if (c === ")") {
        if (depth === 0) {
          alts.push(cur);
          return { body: alts, end: j };
        }
        depth--;
      }
      if (c === "|" && depth === 0) {
        alts.push(cur);
        cur = "";
        continue;
      }
      cur += c;
    }
    return { body: [], end: -1 };
  };
  while (i < n) {
    const c = p[i];
    if (opts.extglob !== false && "@*+?!".includes(c) && p[i + 1] === "(") {
      const g = group(i + 2);
      if (g.end >= 0) {
        const alts = g.body.map((a) => patternSource(a, opts)).join("|");
        // the rest of the pattern is needed for !(...) to be exact
        const rest = patternSource(p.slice(g.end + 1), opts);
        switch (c) {
          case "@":
            out += `(?:${alts})`;
            break;
          case "*":
            out += `(?:${alts})*`;
            break;
          case "+":
            out += `(?:${alts})+`;
            break;
          case "?":
            out += `(?:${alts})?`;
            break;
          case "!":
            out += `(?:(?!(?:${alts})${rest}$)${any}*?)`;
            break;
        }
        i = g.end + 1;
        if (c === "!") {
          out += rest;
          return out;
        }
        continue;
      }
    }
    if (c === "\\") {
      if (i + 1 < n) out += escapeRe(p[i + 1]);
      else out += "\\\\";
      i += 2;
      continue;
    }
    if (c === "*") {
      while (p[i + 1] === "*") i++;
      out += any + "*";
      i++;
      continue;
    }
    if (c === "?") {
      out += any;
      i++;
      continue;
    }
    if (c === "[") {
      const r = bracket(p, i, opts.pathname ?? false);
      if (r) {
        out += r.src;
        i = r.end;
        continue;
      }
      out += "\\[";
      i++;
      continue;
    }
    out += escapeRe(c);
    i++;
  }
  return out;
}

function bracket(p: string, start: number, pathname: boolean): { src: string; end: number } | null {
  let i = start + 1;
  let neg = false;
  if (p[i] === "!" || p[i] === "^") {
    neg = true;
    i++;
  }
  let body = "";
  let first = true;
  while (i < p.length) {
    const c = p[i];
    if (c === "]" && !first) {
      if (!body) return null;
      const cls = `[${neg ? "^" : ""}${body}${neg && pathname ? "/" : ""}]`;
      return { src: cls, end: i + 1 };
    }
    first = false;
    if (c === "[" && p[i + 1] === ":") {
      const e = p.indexOf(":]", i + 2);
      if (e > 0) {
        const name = p.slice(i + 2, e);
        body += CLASSES[name] ?? "";
        i = e + 2;
        continue;
      }
    }
    if (c === "[" && (p[i + 1] === "." || p[i + 1] === "=")) {
      const close = p[i + 1] + "]";
      const e = p.indexOf(close, i + 2);
      if (e > 0) {
        body += escapeClass(p.slice(i + 2, e));
        i = e + 2;
        continue;
      }
    }
    if (c === "\\" && i + 1 < p.length) {
      body += escapeClass(p[i + 1]);
      i += 2;
      continue;
    }
    if (c === "-" && body && p[i + 1] !== "]" && i + 1 < p.length) {
      let hi = p[i + 1];
      let adv = 2;
      if (hi === "\\") {
        hi = p[i + 2];
        adv = 3;
      }
      body += "-" + escapeClass(hi);
      i += adv;
      continue;
    }
    body += escapeClass(c);
    i++;
  }
  return null;
}

function escapeClass(c: string): string {
  return c.replace(/[\\\]\[^-]/g, "\\$&");
}
function escapeRe(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");
}

export function compilePattern(p: string, opts: PatternOpts = {}, anchor: "full" | "start" | "end" | "none" = "full"): RegExp {
  const key = `${anchor}|${opts.extglob ? 1 : 0}${opts.nocase ? 1 : 0}${opts.pathname ? 1 : 0}|${p}`;
  let re = reCache.get(key);
  if (!re) {
    const src = patternSource(p, opts);
    const full = anchor === "full" ? `^(?:${src})$` : anchor === "start" ? `^(?:${src})` : anchor === "end" ? `(?:${src})$` : src;
    try {
      re = new RegExp(full, opts.nocase ? "iu" : "u");
    } catch {
      try {
        re = new RegExp(full, opts.nocase ? "i" : "");
      } catch {
        re = new RegExp("^" + escapeRe(unescapePattern(p)) + "$");
      }
    }
    if (reCache.size > 5000) reCache.clear();
    reCache.set(key, re);
  }
  return re;
}

export function matchPattern(s: string, p: string, opts: PatternOpts = {}): boolean {
  if (!hasGlobMeta(p, opts.extglob !== false)) {
    const lit = unescapePattern(p);
    return opts.nocase ? lit.toLowerCase() === s.toLowerCase() : lit === s;
  }
  return compilePattern(p, opts).test(s);
}

/** Removes the shortest/longest prefix or suffix matching p (${x#p} ${x##p} ${x%p} ${x%%p}). */
export function removeAffix(s: string, p: string, op: "#" | "##" | "%" | "%%", opts: PatternOpts): string {
  const re = compilePattern(p, opts);
  const n = s.length;
  if (op === "#") {
    for (let k = 0; k <= n; k++) if (re.test(s.slice(0, k))) return s.slice(k);
  } else if (op === "##") {
    for (let k = n; k >= 0; k--) if (re.test(s.slice(0, k))) return s.slice(k);
  } else if (op === "%") {
    for (let k = n; k >= 0; k--) if (re.test(s.slice(k))) return s.slice(0, k);
  } else {
    for (let k = 0; k <= n; k++) if (re.test(s.slice(k))) return s.slice(0, k);
  }
  return s;
}

/** ${x/p/r} family: mode "" first, "/" all, "#" anchored at start, "%" anchored at end. */
export function replacePattern(s: string, p: string, rep: string, mode: "" | "/" | "#" | "%", opts: PatternOpts): string {
  const n = s.length;
  // A pattern without wildcards matches only its own text: a string search instead of a
  // regular expression tried on every substring (n² tests; `${s//x/y}` in a loop).
  const lit = opts.nocase || hasGlobMeta(p, opts.extglob !== false) ? "" : unescapePattern(p);
  if (lit !== "") {
    if (mode === "#") return s.startsWith(lit) ? rep + s.slice(lit.length) : s;
    if (mode === "%") return s.endsWith(lit) ? s.slice(0, n - lit.length) + rep : s;
    const at = s.indexOf(lit);
    if (at < 0) return s;
    if (mode === "") return s.slice(0, at) + rep + s.slice(at + lit.length);
    return s.split(lit).join(rep);
  }
  const re = compilePattern(p, opts);
  if (mode === "#") {
    for (let k = n; k >= 0; k--) if (re.test(s.slice(0, k))) return k === 0 && p !== "" ? rep + s : rep + s.slice(k);
    return s;
  }
  if (mode === "%") {
    for (let k = 0; k <= n; k++) if (re.test(s.slice(k))) return s.slice(0, k) + rep;
    return s;
  }
  if (p === "") return s;
  let out = "";
  let i = 0;
  while (i <= n) {
    let matched = -1;
    for (let k = n; k > i; k--) {
      if (re.test(s.slice(i, k))) {
        matched = k;
        break;
      }
    }
    if (matched < 0) {
      if (i < n) out += s[i];
      i++;
      continue;
    }
    out += rep;
    i = matched;
    if (mode === "") {
      out += s.slice(i);
      return out;
    }
  }
  return out;
}
