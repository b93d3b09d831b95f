// Starts and stops a real `wrangler dev` (workerd) for end-to-end checks and benchmarks.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Runs `wrangler dev` with the given keys and state directory; resolves once it answers. */
export async function startDevServer({ port, stateDir, apiKeys, vars = {} }) {
  const varArgs = Object.entries({ TOOLSHED_API_KEYS: apiKeys, ...vars }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const child = spawn(
    "npx",
    ["wrangler", "dev", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", stateDir, ...varArgs, "--show-interactive-dev-session=false"],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true, env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const key = apiKeys.split(",")[0].split("=")[1];
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/v1/tools`, { headers: { authorization: `Bearer ${key}` } });
      if (r.status === 200) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
  process.kill(-child.pid, "SIGKILL");
  throw new Error(`wrangler dev did not start:\n${log}`);
}

export async function stopDevServer(child) {
  const exited = new Promise((r) => child.on("exit", r));
  process.kill(-child.pid, "SIGINT");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {}
}

/** A JSON client for one API key. */
export const client = (port, key) => async (method, path, body) => {
  const r = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  try {
    return { status: r.status, body: JSON.parse(text) };
  } catch {
    return { status: r.status, body: text };
  }
};
