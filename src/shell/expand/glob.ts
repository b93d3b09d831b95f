// Pathname expansion against the host filesystem, one path component at a time.
import type { ShellFs } from "../host";
import { compilePattern, hasGlobMeta, unescapePattern } from "./pattern";

export interface GlobOpts {
  dotglob: boolean;
  globstar: boolean;
  extglob: boolean;
  nocase: boolean;
}

export function joinPath(cwd: string, p: string): string {
  if (p.startsWith("/")) return normalize(p);
  return normalize(cwd + "/" + p);
}

export function normalize(p: string): string {
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (!seg || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return "/" + out.join("/");
}

/** Sorted matches for a pattern, or [] when nothing matches. */
export function glob(pattern: string, cwd: string, fs: ShellFs, opts: GlobOpts, budget: { n: number }): string[] {
  const abs = pattern.startsWith("/");
  const comps = pattern.split("/");
  let results: { shown: string; real: string }[] = [{ shown: abs ? "" : "", real: abs ? "/" : cwd }];
  const start = abs ? 1 : 0;
  for (let ci = start; ci < comps.length; ci++) {
    const comp = comps[ci];
    const last = ci === comps.length - 1;
    const next: { shown: string; real: string }[] = [];
    const sep = (shown: string) => (shown === "" && !abs ? "" : shown === "" ? "/" : shown.endsWith("/") ? shown : shown + "/");
    if (comp === "") {
      if (last) for (const r of results) next.push({ shown: sep(r.shown), real: r.real });
      else for (const r of results) next.push(r);
      results = next.map((r) => ({ ...r, shown: r.shown === "" && abs ? "/" : r.shown }));
      continue;
    }
    if (!hasGlobMeta(comp, opts.extglob)) {
      const lit = unescapePattern(comp);
      for (const r of results) {
        // `.` and `..` (`./*`, `../x/*`) name the directory itself or its parent; the filesystem
        // is asked only for normalized paths.
        const real = lit === "." || lit === ".." ? joinPath(r.real, lit) : r.real === "/" ? "/" + lit : r.real + "/" + lit;
        const st = safeStat(fs, real);
        if (!st) continue;
        if (!last && st.type !== "dir") continue;
        next.push({ shown: sep(r.shown) + lit, real });
      }
      results = next;
      continue;
    }
    if (opts.globstar && comp === "**") {
      for (const r of results) {
        // zero or more directories
        const walk = (shown: string, real: string, depth: number) => {
          if (depth > 64 || --budget.n < 0) return;
          next.push({ shown, real });
          for (const name of safeReaddir(fs, real).sort()) {
            if (name.startsWith(".") && !opts.dotglob) continue;
            const child = real === "/" ? "/" + name : real + "/" + name;
            const st = safeStat(fs, child);
            if (!st) continue;
            const childShown = sep(shown) + name;
            if (st.type === "dir") walk(childShown, child, depth + 1);
            else if (last) next.push({ shown: childShown, real: child });
          }
        };
        walk(r.shown, r.real, 0);
      }
      results = next.filter((r) => !(last && r.shown === ""));
      continue;
    }
    const re = compilePattern(comp, { extglob: opts.extglob, nocase: opts.nocase, pathname: true });
    const explicitDot = comp.startsWith(".") || comp.startsWith("\\.");
    for (const r of results) {
      const st = safeStat(fs, r.real);
      if (!st || st.type !== "dir") continue;
      const names = safeReaddir(fs, r.real).slice().sort();
      for (const name of names) {
        if (--budget.n < 0) return [];
        if (name.startsWith(".") && !explicitDot && !opts.dotglob) continue;
        if (!re.test(name)) continue;
        const real = r.real === "/" ? "/" + name : r.real + "/" + name;
        if (!last) {
          const cs = safeStat(fs, real);
          if (!cs || cs.type !== "dir") continue;
        }
        next.push({ shown: sep(r.shown) + name, real });
      }
    }
    results = next;
  }
  const out = results.map((r) => r.shown).filter((s) => s !== "");
  return [...new Set(out)].sort(compareNames);
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function safeStat(fs: ShellFs, p: string) {
  try {
    return fs.stat(p);
  } catch {
    return null;
  }
}
function safeReaddir(fs: ShellFs, p: string): string[] {
  try {
    return fs.readdir(p);
  } catch {
    return [];
  }
}
