// The OpenAPI document (GET /v1/openapi.json): valid OpenAPI 3.1 by a real validator (in Node,
// test/http/openapi-validator.global.mjs), in step with the router both ways, and true to the
// server: real responses of the Worker validate against the response schemas it declares.
import { Validator, type Schema } from "@cfworker/json-schema";
import { describe, expect, inject, it } from "vitest";
import type { z } from "zod";
import type { DirEntry, SessionInfo } from "../../durable-objects/session";
import { router } from "../../src/http/router";
import type * as shapes from "../../src/http/shapes";
import type { ToolCallRecord } from "../../src/session/state";
import type { TaskView } from "../../src/agents/tasks";
import type { SentFile } from "../../src/vfs/outbox";
import { ALICE, api } from "../helpers";

type Obj = Record<string, any>;

// The response shapes are the types the session object returns (a compile error otherwise).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTypes: [
  Same<z.infer<typeof shapes.SessionInfo>, SessionInfo>,
  Same<z.infer<typeof shapes.DirEntry>, DirEntry>,
  Same<z.infer<typeof shapes.ToolCallRecord>, ToolCallRecord>,
  Same<z.infer<typeof shapes.Task>, TaskView>,
  Same<z.infer<typeof shapes.SentFile>, SentFile>,
] = [true, true, true, true, true];

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

/** Paths src/index.ts answers before the router (no API key): the document and the signed download, the inspector's login. */
const BEFORE_ROUTER = ["/v1/openapi.json", "/v1/sessions/{id}/outbox/{file}/{name}", "/inspect/login", "/inspect/logout"];

async function documentOf(): Promise<Obj> {
  const r = await api("GET", "/v1/openapi.json", { key: null });
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toContain("application/json");
  return r.body;
}

async function validateOpenApi(doc: unknown): Promise<{ valid: boolean; version: string | null; errors: unknown[] }> {
  const r = await fetch(inject("openapiValidator"), { method: "POST", body: JSON.stringify(doc) });
  return r.json();
}

/** The router's own routes (itty-router keeps [method, regex, handlers, path]), the catch-all left out. */
const routes = () => (router.routes as [string, RegExp, unknown, string][]).filter(([, , , path]) => path !== "*");

const templateOf = (routerPath: string) => routerPath.replace(/:(\w+)/g, "{$1}").replace(/\/\*$/, "/{path}");

const sample = (template: string) =>
  template.replace(/\{(\w+)\}/g, (_m, name: string) =>
    name === "id" ? "0123456789abcdef0123456789abcdef" : name === "path" ? "dir/a.txt" : name === "file" ? "0123456789abcdef01234567" : "x",
  );

/** The documented operation a concrete request lands on: a concrete path before a templated one. */
function operationFor(doc: Obj, method: string, pathname: string): Obj | undefined {
  const candidates = Object.keys(doc.paths)
    .filter((t) =>
      new RegExp(
        `^${t
          .replace(/[.]/g, "\\.")
          .replace(/\{path\}/g, ".+")
          .replace(/\{\w+\}/g, "[^/]+")}$`,
      ).test(pathname),
    )
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  return candidates.length ? doc.paths[candidates[0]!][method.toLowerCase()] : undefined;
}

function responseErrors(doc: Obj, method: string, path: string, status: number, body: unknown): string[] {
  const op = operationFor(doc, method, new URL(path, "http://x").pathname);
  if (!op) return [`${method} ${path}: no documented operation`];
  const schema = op.responses?.[String(status)]?.content?.["application/json"]?.schema;
  if (!schema) return [`${method} ${path}: status ${status} has no JSON schema in the document`];
  const r = new Validator({ ...schema, components: doc.components } as Schema, "2020-12", false).validate(body);
  return r.errors.map((e) => `${method} ${path} ${status} ${e.instanceLocation}: ${e.error}`);
}

describe("the OpenAPI document", () => {
  it("is served without a key, holds no tenant data, and is valid OpenAPI 3.1", async () => {
    expect(sameTypes).toEqual([true, true, true, true, true]);
    const doc = await documentOf();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(JSON.stringify(doc)).not.toContain(ALICE);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    const r = await validateOpenApi(doc);
    expect(r.errors).toEqual([]);
    expect(r).toMatchObject({ valid: true, version: "3.1" });
    expect((await api("POST", "/v1/openapi.json", { key: null })).status).toBe(405);
  });

  it("is refused by the validator when broken (the check can fail)", async () => {
    const doc = await documentOf();
    const broken = structuredClone(doc);
    delete broken.paths["/v1/sessions"].post.responses;
    broken.components.securitySchemes.apiKey.type = "password";
    const r = await validateOpenApi(broken);
    expect(r.valid).toBe(false);
    expect(r.errors.length).toBeGreaterThan(0);
  });

  it("documents every route of the router", async () => {
    const doc = await documentOf();
    const missing = routes()
      .map(([method, , , path]) => [method === "ALL" ? "post" : method.toLowerCase(), templateOf(path)] as const)
      .filter(([method, template]) => !doc.paths[template]?.[method])
      .map(([method, template]) => `${method.toUpperCase()} ${template}`);
    expect(missing).toEqual([]);
    expect(routes().length).toBeGreaterThan(15);
  });

  it("documents only what the Worker serves", async () => {
    const doc = await documentOf();
    const unserved: string[] = [];
    for (const [template, item] of Object.entries(doc.paths as Obj)) {
      for (const method of METHODS.filter((m) => item[m])) {
        if (BEFORE_ROUTER.includes(template)) continue;
        const pathname = sample(template);
        const served = routes().some(([m, regex]) => (m === "ALL" || m.toLowerCase() === method) && regex.test(pathname));
        if (!served) unserved.push(`${method.toUpperCase()} ${template}`);
      }
    }
    expect(unserved).toEqual([]);
    // The ones src/index.ts answers before the router need no key.
    for (const template of BEFORE_ROUTER) {
      const method = Object.keys(doc.paths[template]).find((m) => METHODS.includes(m))!;
      const r = await api(method.toUpperCase(), sample(template), { key: null });
      expect(r.status, template).not.toBe(401);
      expect(doc.paths[template][method].security, template).toEqual([]);
    }
  });

  it("gives every toolshed tool its own operation with the parameters /v1/tools exports", async () => {
    const doc = await documentOf();
    const tools = (await api("GET", "/v1/tools?profile=toolshed")).body.tools as Obj[];
    expect(tools.length).toBeGreaterThan(10);
    for (const t of tools) {
      const op = doc.paths[`/v1/sessions/{id}/tools/${t.name}`]?.post;
      expect(op, t.name).toBeDefined();
      expect(doc.components.schemas[`${t.name}Params`]).toEqual(t.parameters);
    }
  });

  it("describes real responses of the running Worker", async () => {
    const doc = await documentOf();
    const errors: string[] = [];
    const seen = new Set<string>();
    const call = async (method: string, path: string, opts: Parameters<typeof api>[2] = {}) => {
      const r = await api(method, path, opts);
      errors.push(...responseErrors(doc, method, path, r.status, r.body));
      seen.add(`${method} ${r.status}`);
      return r;
    };

    const created = await call("POST", "/v1/sessions", { body: { cwd: "proj", env: { GREETING: "hi" } } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const s = `/v1/sessions/${id}`;
    await call("GET", s);
    await call("GET", "/v1/sessions?limit=5");
    for (const format of ["jsonschema", "openai", "anthropic", "mcp"]) {
      await call("GET", `/v1/tools?profile=wayland-core&format=${format}`);
      await call("GET", `${s}/tools?format=${format}`);
    }
    await call("POST", `${s}/tools/write_file`, { body: { path: "a.txt", content: "one\ntwo\n" } });
    await call("POST", `${s}/tools/read_file`, { body: { path: "a.txt" } });
    await call("POST", `${s}/tools/read_file`, { body: { path: ".env" } });
    const sh = await call("POST", `${s}/tools/bash`, { body: { command: "wc -l a.txt; ls /nope" } });
    expect(sh.body).toMatchObject({ success: false, exit_code: 2 });
    await call("POST", `${s}/tools/bash`, { body: { command: "rm -rf /" } });
    await call("POST", `${s}/tools/exec`, { body: { program: "sort", args: ["-r", "a.txt"] } });
    await call("POST", `${s}/tools/set_status`, { body: { status: "checking the document" } });
    await call("POST", `${s}/tools/send_file`, { body: { path: "a.txt", caption: "the list" } });
    await call("GET", `${s}/outbox`);
    await call("PUT", `${s}/files/data/b.bin`, { raw: new Uint8Array([0, 1, 2, 255]) });
    await call("GET", `${s}/tree?path=data`);
    await call("GET", `${s}/tree?path=/etc`);
    await call("DELETE", `${s}/files/data/b.bin`);
    await call("GET", `${s}/files/missing.txt`);
    await call("GET", `${s}/log?limit=20`);
    await call("GET", `${s}/tasks`);
    await call("GET", `${s}/tasks/task-nope`);
    await call("POST", `${s}/tools/no_such_tool`, { body: {} });
    await call("POST", `${s}/tools/bash`, { body: { command: 42 } });
    await call("POST", "/v1/sessions", { body: { profile: "nope" } });
    await call("GET", "/v1/sessions", { key: null });
    await call("POST", "/inspect/login", { key: null, body: { key: ALICE } });
    await call("POST", "/inspect/logout", { key: null });
    await call("DELETE", s);
    await call("GET", s);

    expect(errors).toEqual([]);
    // The run met successes and failures of several kinds.
    for (const k of ["POST 201", "GET 200", "POST 200", "PUT 201", "DELETE 200", "GET 404", "POST 400", "POST 404", "GET 401", "GET 403"]) expect(seen, k).toContain(k);
  });

  it("would catch a response that drifted from its schema", async () => {
    const doc = await documentOf();
    const id = (await api("POST", "/v1/sessions", { body: {} })).body.id as string;
    const info = (await api("GET", `/v1/sessions/${id}`)).body;
    expect(responseErrors(doc, "GET", `/v1/sessions/${id}`, 200, info)).toEqual([]);
    expect(responseErrors(doc, "GET", `/v1/sessions/${id}`, 200, { ...info, extra: 1 })).not.toEqual([]);
    const { usage: _u, ...withoutUsage } = info;
    expect(responseErrors(doc, "GET", `/v1/sessions/${id}`, 200, withoutUsage)).not.toEqual([]);
    const sh = (await api("POST", `/v1/sessions/${id}/tools/bash`, { body: { command: "true" } })).body;
    expect(responseErrors(doc, "POST", `/v1/sessions/${id}/tools/bash`, 200, { ...sh, exit_code: "0" })).not.toEqual([]);
  });
});
