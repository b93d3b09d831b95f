import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { FileRules } from "../../src/policy/files";
import { GuardedFs } from "../../src/policy/guarded-fs";
import { Workspace } from "../../src/vfs/workspace";
import FSPROBE from "../../wasm/dist/fsprobe.wasm";
import { runWasi, type WasiLimits, type WasiRunResult } from "../../src/wasi/runner";

/** Runs `fn` against a fresh workspace in a real Durable Object's SQLite, behind the policy. */
export async function withFs<T>(
  fn: (fs: GuardedFs, ws: Workspace) => T,
  opts: { quotas?: { maxBytes: number; maxFiles: number }; wrapWs?: (ws: Workspace) => Workspace } = {},
): Promise<T> {
  const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
  return runInDurableObject(stub, (_obj, state) => {
    Workspace.initialize(state.storage);
    const ws = new Workspace(state.storage, opts.quotas ?? { maxBytes: 1 << 30, maxFiles: 20_000 });
    const fs = new GuardedFs(opts.wrapWs ? opts.wrapWs(ws) : ws, new FileRules());
    return fn(fs, ws);
  });
}

export interface Ran extends WasiRunResult {
  out: string;
  err: string;
}

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

export function run(
  program: WebAssembly.Module,
  fs: GuardedFs,
  argv: string[],
  opts: { cwd?: string; stdin?: string | Uint8Array; env?: Record<string, string>; limits?: WasiLimits } = {},
): Ran {
  const stdin = typeof opts.stdin === "string" ? new TextEncoder().encode(opts.stdin) : opts.stdin;
  const r = runWasi(program, { argv, env: opts.env ?? {}, cwd: opts.cwd ?? "/workspace", fs, stdin, limits: opts.limits });
  return { ...r, out: decode(r.stdout), err: decode(r.stderr) };
}

export const probe = (fs: GuardedFs, args: string[], opts: Parameters<typeof run>[3] = {}) => run(FSPROBE, fs, ["fsprobe", ...args], opts);

/** Call counts per method of an object, through a Proxy that forwards everything. */
export function counting<T extends object>(target: T): { proxy: T; calls: Map<string, string[]> } {
  const calls = new Map<string, string[]>();
  const proxy = new Proxy(target, {
    get(t, key, receiver) {
      const v = Reflect.get(t, key, receiver);
      if (typeof v !== "function" || typeof key !== "string") return v;
      return (...args: unknown[]) => {
        const list = calls.get(key) ?? [];
        list.push(String(args[0]));
        calls.set(key, list);
        return v.apply(t, args);
      };
    },
  });
  return { proxy, calls };
}

/** Byte equality without vitest's element-by-element diff (slow on megabytes). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
