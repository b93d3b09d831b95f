import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { api, BOB, newSession, tool } from "../helpers";

/** Fetches a link as a user's browser would: no API key. */
const download = (url: string, init: RequestInit = {}) => exports.default.fetch(url, init);

function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  return out;
}

/** Equal bytes, compared by digest (element-wise equality of large arrays is slow in expect). */
const digest = async (bytes: ArrayBuffer | Uint8Array): Promise<string> =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");

async function upload(id: string, path: string, bytes: Uint8Array): Promise<void> {
  const r = await api("PUT", `/v1/sessions/${id}/files/${path}`, { raw: bytes });
  expect(r.status).toBe(201);
}

describe("send_file and the outbox", () => {
  afterEach(() => vi.restoreAllMocks());

  it("gives a link that downloads the same bytes without the key, even after the file changes", async () => {
    const id = await newSession();
    const bytes = randomBytes(700_000); // three stored chunks
    await upload(id, "out/report.bin", bytes);
    const r = await tool(id, "send_file", { path: "out/report.bin", caption: "the report" });
    expect(r.success).toBe(true);
    expect(r.file).toMatchObject({ name: "report.bin", path: "out/report.bin", size: 700_000, caption: "the report" });
    expect(r.file.url).toMatch(new RegExp(`^http://toolshed\\.test/v1/sessions/${id}/outbox/[0-9a-f]{24}/report\\.bin\\?tenant=alice&expires=\\d+&sig=[0-9a-f]{64}$`));
    expect(r.output).toContain(r.file.url);

    await tool(id, "write_file", { path: "out/report.bin", content: "changed" });
    const res = await download(r.file.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe("700000");
    expect(res.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''report.bin");
    const got = await res.arrayBuffer();
    expect(got.byteLength).toBe(bytes.length);
    expect(await digest(got)).toBe(await digest(bytes));
  });

  it("lists the outbox (with the key only), newest first", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "a.txt", content: "A" });
    await tool(id, "write_file", { path: "empty.txt", content: "" });
    await tool(id, "send_file", { path: "a.txt" });
    const sent = await tool(id, "send_file", { path: "/workspace/empty.txt" });
    const list = await api("GET", `/v1/sessions/${id}/outbox`);
    expect(list.status).toBe(200);
    expect(list.body.files.map((f: { name: string }) => f.name).sort()).toEqual(["a.txt", "empty.txt"]);
    expect(list.body.files.find((f: { name: string }) => f.name === "empty.txt").url).toBe(sent.file.url);
    const empty = await download(sent.file.url);
    expect(empty.status).toBe(200);
    expect(await empty.text()).toBe("");
    expect((await api("GET", `/v1/sessions/${id}/outbox`, { key: null })).status).toBe(401);
    expect((await api("GET", `/v1/sessions/${id}/outbox`, { key: BOB })).status).toBe(404);
  });

  it("refuses altered links", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "a.txt", content: "secret-ish" });
    const { file } = await tool(id, "send_file", { path: "a.txt" });
    const url = new URL(file.url);
    const altered = (edit: (u: URL) => void): string => {
      const u = new URL(url);
      edit(u);
      return u.href;
    };
    const cases = [
      altered((u) => u.searchParams.set("sig", "0".repeat(64))),
      altered((u) => u.searchParams.delete("sig")),
      altered((u) => u.searchParams.set("tenant", "bob")),
      altered((u) => u.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 3600))),
      altered((u) => (u.pathname = u.pathname.replace(/outbox\/[0-9a-f]{24}/, `outbox/${"a".repeat(24)}`))),
    ];
    for (const href of cases) {
      const res = await download(href);
      expect(res.status, href).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe("invalid_link");
    }
    expect((await download(url.href, { method: "POST" })).status).toBe(405);
    const head = await download(url.href, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("10");
    expect((await download(url.href)).status).toBe(200);
  });

  it("stops working after it expires, and the outbox forgets the file", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "a.txt", content: "soon gone" });
    const { file } = await tool(id, "send_file", { path: "a.txt" });
    expect((await download(file.url)).status).toBe(200);
    const expiresAt = Date.parse(file.expiresAt);
    expect(expiresAt - Date.now()).toBeGreaterThan(23 * 3600 * 1000); // default: one day
    vi.spyOn(Date, "now").mockReturnValue(expiresAt + 1000);
    const res = await download(file.url);
    expect(res.status).toBe(410);
    expect(((await res.json()) as { message: string }).message).toMatch(/expired; ask the agent to send the file again/);
    expect((await api("GET", `/v1/sessions/${id}/outbox`)).body.files).toEqual([]);
  });

  it("refuses sensitive files, paths outside the workspace, directories and files over 50 MB", async () => {
    const id = await newSession();
    await api("PUT", `/v1/sessions/${id}/files/.env`, { raw: "API_KEY=x" });
    await api("PUT", `/v1/sessions/${id}/files/config/.env.production`, { raw: "API_KEY=x" });
    for (const path of [".env", "config/.env.production", "/workspace/.env"]) {
      const r = await tool(id, "send_file", { path });
      expect(r.success, path).toBe(false);
      expect(r.denied?.rule, path).toBe("sensitive-file");
    }
    for (const path of ["../etc/passwd", "/etc/passwd", "/workspace2/x"]) {
      const r = await tool(id, "send_file", { path });
      expect(r.denied?.rule, path).toMatch(/^path-/);
    }
    expect((await tool(id, "send_file", { path: "config" })).error).toMatch(/Is a directory/);
    expect((await tool(id, "send_file", { path: "missing.txt" })).error).toMatch(/No such file/);
    await upload(id, "big.bin", new Uint8Array(50 * 1024 * 1024 + 1));
    expect((await tool(id, "send_file", { path: "big.bin" })).error).toMatch(/52428801 bytes; send_file takes at most 52428800 bytes/);
    expect((await api("GET", `/v1/sessions/${id}/outbox`)).body.files).toEqual([]);
    const log = await api("GET", `/v1/sessions/${id}/log`);
    expect(log.body.calls.filter((c: { tool: string; outcome: string }) => c.tool === "send_file" && c.outcome === "denied")).toHaveLength(6);
  });
});
