// In-memory ShellHost for tests and harnesses: a map-backed filesystem rooted at
// `root`, a program table of JS functions, a pluggable deny hook and clock.
import type { FileStat, ProgramIo, ShellHost } from "./host";
import { WRAPPERS } from "../policy/commands/wrappers";
import { normalize } from "./expand/glob";

export type MemProgram = (argv: string[], io: ProgramIo) => Promise<number>;

export interface MemoryHostOptions {
  root?: string;
  files?: Record<string, string | Uint8Array>;
  programs?: Record<string, MemProgram>;
  deny?: (argv: string[]) => { rule: string; reason: string } | null;
  now?: () => number;
}

export class MemoryHost implements ShellHost {
  files = new Map<string, { data: Uint8Array; mtimeMs: number }>();
  dirs = new Set<string>(["/"]);
  root: string;
  programs: Record<string, MemProgram>;
  private clock: () => number;
  private tick = 0;
  constructor(private o: MemoryHostOptions = {}) {
    this.root = o.root ?? "/workspace";
    this.mkdirp(this.root);
    this.programs = o.programs ?? {};
    this.clock = o.now ?? (() => Date.now());
    for (const [p, d] of Object.entries(o.files ?? {})) {
      const abs = normalize(p.startsWith("/") ? p : this.root + "/" + p);
      this.mkdirp(abs.slice(0, abs.lastIndexOf("/")) || "/");
      this.files.set(abs, { data: typeof d === "string" ? new TextEncoder().encode(d) : d, mtimeMs: ++this.tick });
    }
  }
  mkdirp(p: string): void {
    const parts = normalize(p).split("/").filter(Boolean);
    let cur = "";
    for (const s of parts) {
      cur += "/" + s;
      this.dirs.add(cur);
    }
  }
  fs = {
    stat: (p: string): FileStat | null => {
      if (this.dirs.has(p)) return { type: "dir", size: 0, mtimeMs: 0 };
      const f = this.files.get(p);
      return f ? { type: "file", size: f.data.length, mtimeMs: f.mtimeMs } : null;
    },
    readdir: (p: string): string[] => {
      const pre = p === "/" ? "/" : p + "/";
      const out = new Set<string>();
      for (const k of [...this.files.keys(), ...this.dirs]) {
        if (k.startsWith(pre) && k !== p) {
          const rest = k.slice(pre.length);
          if (rest && !rest.includes("/")) out.add(rest);
        }
      }
      return [...out];
    },
    readFile: (p: string): Uint8Array => {
      const f = this.files.get(p);
      if (!f) throw { message: "No such file or directory" };
      return f.data;
    },
    writeFile: (p: string, data: Uint8Array, opts: { append: boolean }): void => {
      const f = this.files.get(p);
      if (opts.append && f) {
        const n = new Uint8Array(f.data.length + data.length);
        n.set(f.data);
        n.set(data, f.data.length);
        f.data = n;
        f.mtimeMs = ++this.tick;
      } else this.files.set(p, { data: data.slice(), mtimeMs: ++this.tick });
    },
  };
  resolvePath(cwd: string, path: string): string {
    const abs = normalize(path.startsWith("/") ? path : cwd + "/" + path);
    if (this.root !== "/" && abs !== this.root && !abs.startsWith(this.root + "/") && !abs.startsWith("/tmp")) {
      throw { message: "Permission denied", denied: { rule: "path-outside-workspace", reason: `${path} is outside ${this.root}` } };
    }
    return abs;
  }
  runProgram(argv: string[], io: ProgramIo): Promise<number> | undefined {
    const p = this.programs[argv[0]];
    return p ? p(argv, io) : undefined;
  }
  hasProgram(name: string): boolean {
    return name in this.programs;
  }
  wrapperValueOptions(name: string): readonly string[] {
    return WRAPPERS[name]?.valueOptions ?? [];
  }

  checkCommand(argv: string[]) {
    return this.o.deny ? this.o.deny(argv) : null;
  }
  now(): number {
    return this.clock();
  }
  sleep(ms: number): Promise<void> {
    return new Promise((r) => setTimeout(r, ms));
  }
}
