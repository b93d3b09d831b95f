import { z } from "zod";
import type { DeferredTool } from "../../mcp/client/deferred";
import { truncateMiddle } from "../../policy/output";
import { ToolError } from "../result";
import { defineTool, type Json, type ToolContext } from "../types";

const params = z.object({
  query: z.string().max(500).describe("Substring to match against tool names and descriptions."),
});

const BASE =
  "Load full schemas for deferred tools so the model can call them. Deferred tools are the tools of the remote MCP servers attached to this session, named mcp__<server>__<tool>; they are not in the initial tool list. Match is case-insensitive substring on both name and description; all matches are returned, each with its full parameter schema. Call a match by its name like any other tool.";

const NO_DEFERRED =
  "This session has no deferred tools: no remote MCP server is attached to it. Servers are attached when a session is created (POST /v1/sessions {mcp_servers: [...]}), from those the operator configured.";

const listing = (t: DeferredTool): string => `${t.name}: ${t.description || "(no description)"}\nparameters: ${JSON.stringify(t.parameters)}`;

export const toolSearch = defineTool({
  name: "tool_search",
  description: BASE,
  describe(ctx: ToolContext, base = BASE): string {
    const servers = ctx.deferred?.servers ?? [];
    return servers.length ? `${base} Attached MCP servers: ${servers.join(", ")}.` : `${base} No MCP server is attached to this session.`;
  },
  params,
  readOnly: true,
  async run(ctx, { query }) {
    if (!ctx.deferred?.servers.length) return { success: true, output: NO_DEFERRED, tools: [], unavailable: [] };
    const { tools, unavailable } = await ctx.deferred.list();
    const down = unavailable.map((u) => `MCP server '${u.server}' is unavailable: ${u.error}`);
    if (tools.length === 0 && unavailable.length === ctx.deferred.servers.length) {
      throw new ToolError(`No deferred tool could be listed. ${down.join(" ")}`);
    }
    const q = query.toLowerCase();
    const hits = tools.filter((t) => t.name.toLowerCase().includes(q) || t.description.toLowerCase().includes(q));
    const head = hits.length
      ? `${hits.length === 1 ? "1 deferred tool matches" : `${hits.length} deferred tools match`} "${query}"; call them by these names:\n\n${hits.map(listing).join("\n\n")}`
      : `No deferred tool matches "${query}". This session's deferred tools: ${tools.map((t) => t.name).join(", ") || "none"}.`;
    return {
      success: true,
      output: truncateMiddle([head, ...down].join("\n\n")),
      tools: hits.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })) as Json,
      unavailable: unavailable as unknown as Json,
    };
  },
});
