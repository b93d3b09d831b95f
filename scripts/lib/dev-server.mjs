// Starts and stops a real `wrangler dev` (workerd) for end-to-end checks and benchmarks.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, readdirSync, readlinkSync } from "node:fs";
import { request } from "node:http";
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

/**
 * Runs `wrangler dev` with the given keys and state directory; resolves once it answers.
 * `config`: another wrangler configuration than the project's (a benchmark's reference Worker).
 * `extraArgs`: more `wrangler dev` flags (e.g. `--inspector-port` for a CPU profile).
 */
export async function startDevServer({ port, stateDir, apiKeys, vars = {}, config, extraArgs = [] }) {
  const varArgs = Object.entries({ TOOLSHED_API_KEYS: apiKeys, ...vars }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const configArgs = config ? ["--config", config] : [];
  const child = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      ...configArgs,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      stateDir,
      ...varArgs,
      ...extraArgs,
      "--show-interactive-dev-session=false",
    ],
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
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {} // it may have exited already: its log says why
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

/** Ports on 127.0.0.1 that the processes `pids` listen on (from /proc, no tools needed). */
function listeningPorts(pids) {
  const inodes = new Set();
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      }
    } catch {}
  }
  const ports = [];
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const f = line.trim().split(/\s+/);
    // local address 0100007F:PORT, state 0A (LISTEN), inode in column 10
    if (f[3] === "0A" && f[1]?.startsWith("0100007F:") && inodes.has(f[9])) ports.push(parseInt(f[1].split(":")[1], 16));
  }
  return ports;
}

/**
 * The Worker's own socket inside `wrangler dev`: workerd serves it next to wrangler's proxy
 * (which forwards every request there over its own pool of kept-alive connections). Found
 * among the ports the server's workerd processes listen on, as the one that answers the API.
 */
export async function workerPort(server, proxyPort, key) {
  const pids = execFileSync("pgrep", ["-g", String(server.pid), "workerd"], { encoding: "utf8" })
    .trim()
    .split("\n");
  for (const port of listeningPorts(pids)) {
    if (port === proxyPort) continue;
    const r = await new Promise((resolve) => {
      const req = request({ host: "127.0.0.1", port, path: "/v1/tools", headers: { authorization: `Bearer ${key}` }, timeout: 5000 }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", () => resolve(0));
      req.on("timeout", () => req.destroy());
      req.end();
    });
    if (r === 200) return port;
  }
  throw new Error("the Worker's own socket was not found among the workerd processes' ports");
}

/**
 * A JSON client that opens a connection per request (`connection: close`). Sent straight to
 * workerd, nothing is left idle for its 5 s keep-alive timer to close under a request.
 */
export const freshClient = (port, key) => (method, path, body) =>
  new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json", connection: "close" };
    if (data) headers["content-length"] = data.length;
    const req = request({ host: "127.0.0.1", port, method, path, agent: false, headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        try {
          resolve({ status: res.statusCode, body: JSON.parse(text) });
        } catch {
          resolve({ status: res.statusCode, body: text });
        }
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(data);
  });
