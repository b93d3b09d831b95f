// Real MCP servers for the MCP client tests (test/mcp/client.test.ts), in Node on 127.0.0.1,
// built with the official SDKs (no stand-in):
//   /calc    the 2025-revision SDK (@modelcontextprotocol/sdk McpServer + StreamableHTTPServerTransport,
//            with protocol sessions); needs `Authorization: Bearer test-mcp-token`, else 401.
//            Tools: add, fail (answers isError), slow (answers after 8 s).
//   /notes   the current SDK (@modelcontextprotocol/server McpServer through createMcpHandler,
//            revision 2026-07-28 and stateless 2025); needs `x-notes-key: notes-secret`. Tool: lookup_note.
//   /not-mcp an HTML page (a URL that is not an MCP server)
//   /to-metadata  307 to http://169.254.169.254/mcp (a redirect the URL policy must refuse)
//   /moved        307 to /calc on a second port (another origin: credentials must not follow)
//   /requests     what came in: [{port, path, method, authorized}]
// Runs in Node (plain JavaScript: the project's TypeScript is typed for workerd only).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer as LegacyMcpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

export const CALC_TOKEN = "test-mcp-token";
export const NOTES_KEY = "notes-secret";

function calcServer() {
  const server = new LegacyMcpServer({ name: "calc", version: "1.0.0" });
  server.registerTool(
    "add",
    { description: "Add two numbers and return their sum.", inputSchema: { a: z.number().describe("first addend"), b: z.number().describe("second addend") } },
    async ({ a, b }) => ({ content: [{ type: "text", text: `${a} + ${b} = ${a + b}` }], structuredContent: { sum: a + b } }),
  );
  server.registerTool("fail", { description: "Always fails, on purpose.", inputSchema: {} }, async () => ({
    content: [{ type: "text", text: "the remote tool broke on purpose" }],
    isError: true,
  }));
  server.registerTool("slow", { description: "Answers after eight seconds.", inputSchema: {} }, async () => {
    await new Promise((r) => setTimeout(r, 8_000));
    return { content: [{ type: "text", text: "late" }] };
  });
  return server;
}

function notesServer() {
  const server = new McpServer({ name: "notes", version: "1.0.0" });
  server.registerTool(
    "lookup_note",
    { description: "Look up a stored note by its key.", inputSchema: z.object({ key: z.string().describe("the note's key") }) },
    async ({ key }) => ({ content: [{ type: "text", text: key === "greeting" ? "hello from the notes server" : `no note '${key}'` }] }),
  );
  return server;
}

/** @param {import("vitest/node").TestProject} project */
export default async function setup(project) {
  /** @type {{port: number, path: string, method: string, authorized: boolean}[]} */
  const seen = [];
  /** @type {Map<string, StreamableHTTPServerTransport>} */
  const calcSessions = new Map();
  const notes = createMcpHandler(() => notesServer());

  /** @type {number} */
  let otherPort = 0;
  const handler = async (req, res) => {
    const port = req.socket.localPort ?? 0;
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const raw = Buffer.concat(chunks);
    const path = new URL(req.url ?? "/", "http://x").pathname;
    try {
      if (path === "/calc") {
        const authorized = req.headers.authorization === `Bearer ${CALC_TOKEN}`;
        seen.push({ port, path, method: req.method ?? "", authorized });
        if (!authorized) return send(res, 401, { error: "unauthorized" });
        const sid = req.headers["mcp-session-id"];
        let transport = typeof sid === "string" ? calcSessions.get(sid) : undefined;
        if (!transport) {
          transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => calcSessions.set(id, transport) });
          transport.onclose = () => transport?.sessionId && calcSessions.delete(transport.sessionId);
          await calcServer().connect(transport);
        }
        return await transport.handleRequest(req, res, raw.length ? JSON.parse(raw.toString("utf8")) : undefined);
      }
      if (path === "/notes") {
        const authorized = req.headers["x-notes-key"] === NOTES_KEY;
        seen.push({ port, path, method: req.method ?? "", authorized });
        if (!authorized) return send(res, 401, { error: "unauthorized" });
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
        const answer = await notes.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: raw.length ? raw : undefined }));
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        if (answer.body) for await (const c of answer.body) res.write(c);
        return res.end();
      }
      if (path === "/requests") return send(res, 200, seen);
      seen.push({ port, path, method: req.method ?? "", authorized: false });
      if (path === "/not-mcp") {
        res.writeHead(200, { "content-type": "text/html" });
        return res.end("<html><body>Just a web page</body></html>");
      }
      if (path === "/moved") {
        res.writeHead(307, { location: `http://127.0.0.1:${otherPort}/calc` });
        return res.end();
      }
      if (path === "/to-metadata") {
        res.writeHead(307, { location: "http://169.254.169.254/mcp" });
        return res.end();
      }
      send(res, 404, { error: "not found" });
    } catch (e) {
      if (!res.headersSent) send(res, 500, { error: String(e) });
      else res.end();
    }
  };
  const http = createServer(handler);
  const other = createServer(handler);
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  await new Promise((resolve) => other.listen(0, "127.0.0.1", resolve));
  const { port } = /** @type {import("node:net").AddressInfo} */ (http.address());
  otherPort = /** @type {import("node:net").AddressInfo} */ (other.address()).port;
  project.provide("mcpRemote", { origin: `http://127.0.0.1:${port}`, otherOrigin: `http://127.0.0.1:${otherPort}`, calcToken: CALC_TOKEN, notesKey: NOTES_KEY });
  return async () => {
    for (const t of calcSessions.values()) await t.close().catch(() => undefined);
    for (const s of [http, other]) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(() => resolve()));
    }
  };
}

function send(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
