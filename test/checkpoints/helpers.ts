import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import { sessionStub } from "../../src/service";
import { checkConsistency } from "../../src/vfs/consistency";
import { api, tool } from "../helpers";

/** Every stored node of a session with its content as hex: the tree byte for byte. */
export async function snapshot(id: string, tenant = "alice"): Promise<Record<string, string>> {
  return runInDurableObject(sessionStub(env, tenant, id), (_o, state) => {
    const out: Record<string, string> = {};
    const rows = state.storage.sql
      .exec<{ path: string; kind: number; size: number; mtime: number; atime: number | null; mode: number | null; blob: number | null; target: string | null }>(
        `SELECT path, kind, size, mtime, atime, mode, blob, target FROM vfs_nodes ORDER BY path`,
      )
      .toArray();
    for (const r of rows) {
      let content = "";
      if (r.blob !== null) {
        const chunks = state.storage.sql.exec<{ data: ArrayBuffer }>(`SELECT data FROM vfs_chunks WHERE blob = ? ORDER BY idx`, r.blob).toArray();
        content = chunks.map((c) => [...new Uint8Array(c.data)].map((b) => b.toString(16).padStart(2, "0")).join("")).join("");
      }
      out[r.path] = `kind=${r.kind} size=${r.size} mtime=${r.mtime} atime=${r.atime ?? r.mtime} mode=${r.mode} target=${r.target} content=${content}`;
    }
    return out;
  });
}

export async function expectConsistent(id: string, tenant = "alice"): Promise<void> {
  const problems = await runInDurableObject(sessionStub(env, tenant, id), (_o, state) => checkConsistency(state.storage.sql));
  expect(problems).toEqual([]);
}

export async function bash(id: string, command: string): Promise<{ success: boolean; stdout?: string; stderr?: string; output?: string }> {
  return tool(id, "bash", { command });
}

export async function checkpoint(id: string, label?: string): Promise<{ id: number; bytes: number; files: number }> {
  const r = await api("POST", `/v1/sessions/${id}/checkpoints`, { body: label === undefined ? {} : { label } });
  expect(r.status).toBe(201);
  return r.body;
}

export async function restore(id: string, cp: number, paths?: string[]) {
  const r = await api("POST", `/v1/sessions/${id}/checkpoints/${cp}/restore`, { body: paths ? { paths } : {} });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { restored: number; changed: number; undo: { id: number } | null };
}
