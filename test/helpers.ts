import { exports } from "cloudflare:workers";

/** Keys the test configuration (vitest.config.ts) gives the Worker. */
export const ALICE = "test-key-alice";
export const BOB = "test-key-bob";

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** Calls the Worker's HTTP API as a client would. */
export async function api<T = any>(
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown; raw?: BodyInit; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? ALICE : opts.key;
  if (key) headers["authorization"] = `Bearer ${key}`;
  let body: BodyInit | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] = "application/json";
  }
  const res = await exports.default.fetch(`http://toolshed.test${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* raw body */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export async function newSession(key = ALICE, body: Record<string, unknown> = {}): Promise<string> {
  const r = await api("POST", "/v1/sessions", { key, body });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

/** Runs a tool and returns its result (asserting HTTP 200). */
export async function tool<T = any>(id: string, name: string, args: unknown, key = ALICE): Promise<T> {
  const r = await api("POST", `/v1/sessions/${id}/tools/${name}`, { key, body: args });
  if (r.status !== 200) throw new Error(`${name} → HTTP ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body as T;
}
