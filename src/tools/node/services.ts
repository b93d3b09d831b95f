import { createHash, createHmac, getHashes, randomBytes, randomUUID } from "node:crypto";
import { GuestFailure } from "./fs-ops";

/**
 * What `node` asks of the session beyond files: hashes, URL parsing, the shell, the network.
 * `sync` answers at once; `async` returns a promise the script awaits (fetch, exec); `blocking`
 * is what a *Sync call waits for with the guest suspended (execSync through the shell; JSPI,
 * src/tools/node/suspend.ts).
 */
export interface Services {
  sync: Record<string, (...a: any[]) => unknown>;
  async: Record<string, (...a: any[]) => Promise<unknown>>;
  blocking: Record<string, (...a: any[]) => Promise<unknown>>;
}

interface ShellResult {
  status: number;
  /** stdout and stderr as latin1 strings (one char per byte). */
  stdout: string;
  stderr: string;
}

interface FetchAnswer {
  status?: number;
  statusText?: string;
  url?: string;
  redirected?: boolean;
  headers?: [string, string][];
  body?: string;
  error?: string;
  denied?: boolean;
}

export interface ServiceDoors {
  /** Runs a command line through the session's shell (policy, log, limits). */
  shell(script: string, cwd: string | null, env: Record<string, string> | null, input: string | null): Promise<ShellResult>;
  /** fetch through the one URL policy. */
  fetch(url: string, init: { method: string; headers: Record<string, string>; redirect: string }, body: Uint8Array | null): Promise<FetchAnswer>;
}

const URL_PARTS = ["href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash", "origin"] as const;
const urlParts = (u: URL) => Object.fromEntries(URL_PARTS.map((k) => [k, u[k]]));
const HASHES = new Set(["md5", "sha1", "sha256", "sha384", "sha512", "sha224"]);

export function makeServices(doors: ServiceDoors): Services {
  const hashCheck = (alg: string) => {
    if (!HASHES.has(alg) && !getHashes().includes(alg)) throw new GuestFailure({ code: "ERR_OSSL_EVP_UNSUPPORTED", message: "Digest method not supported" });
    return null;
  };
  return {
    sync: {
      url: (input: string, base: string | null) => {
        try {
          return urlParts(base === null ? new URL(input) : new URL(input, base));
        } catch {
          return null;
        }
      },
      urlSet: (href: string, part: string, value: string) => {
        const u = new URL(href);
        (u as unknown as Record<string, string>)[part] = value;
        return urlParts(u);
      },
      hashCheck,
      hash: (alg: string, data: Uint8Array, key: Uint8Array | null) => {
        hashCheck(alg);
        const h = key ? createHmac(alg, key) : createHash(alg);
        return new Uint8Array(h.update(data).digest());
      },
      random: (n: number) => new Uint8Array(randomBytes(Math.max(0, Math.min(65536, n | 0)))),
      uuid: () => randomUUID(),
      // Reached only where the platform lacks JSPI (run.ts installs __hostWait where it has it).
      execSync: () => {
        throw new GuestFailure({
          code: "ERR_NOT_SUPPORTED",
          message:
            "child_process.execSync/spawnSync/execFileSync can wait for the session's shell only where WebAssembly JSPI exists, and this platform lacks it. Use the callback or promise form: child_process.exec(cmd, (err, stdout, stderr) => ...), or util.promisify(exec), which run through the same shell and policy.",
        });
      },
    },
    async: {
      exec: (script: string, cwd: string | null, env: string | null, input: string | null) => doors.shell(script, cwd, env ? JSON.parse(env) : null, input),
      fetch: (url: string, init: string, body: Uint8Array | string | null) =>
        doors.fetch(url, JSON.parse(init), typeof body === "string" ? new TextEncoder().encode(body) : body),
    },
    blocking: {
      execSync: (script: string, cwd: string | null, env: string | null, input: string | null) => doors.shell(script, cwd, env ? JSON.parse(env) : null, input),
    },
  };
}
