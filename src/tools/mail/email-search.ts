import { z } from "zod";
import { imapConfigFromEnv } from "../../net/imap/config";
import { ImapError } from "../../net/imap/errors";
import { searchMailbox, type MailMessage } from "../../net/imap/search";
import { truncateMiddle } from "../../policy/output";
import { netOf } from "../net/web-fetch";
import { defineTool, type ToolResult } from "../types";

const params = z.object({
  query: z
    .string()
    .min(1, "the query is empty; give IMAP SEARCH criteria such as FROM alice@example.com SINCE 1-Jan-2024")
    .max(1000)
    .describe("Search query (IMAP SEARCH syntax)"),
  folder: z.string().min(1).max(200).default("INBOX").describe("Email folder to search"),
  max_results: z.number().int().min(1).max(50).default(10).describe("Maximum number of results to return"),
});

export const emailSearch = defineTool({
  name: "email_search",
  description:
    "Search email messages via IMAP. Returns matching messages with headers and content: subject, from, date and the decoded text body (capped), newest first.",
  params,
  readOnly: true,
  async run(ctx, args): Promise<ToolResult> {
    try {
      const cfg = imapConfigFromEnv(ctx.workerEnv ?? {});
      const { total, messages } = await searchMailbox(cfg, netOf(ctx), { query: args.query, folder: args.folder, maxResults: args.max_results });
      return { success: true, output: truncateMiddle(format(args.query, args.folder, total, messages)), messages, total_matches: total };
    } catch (e) {
      if (e instanceof ImapError) return { success: false, error: e.message, kind: e.kind };
      throw e;
    }
  },
});

function format(query: string, folder: string, total: number, messages: MailMessage[]): string {
  if (messages.length === 0) return `No messages in ${folder} match ${query}.`;
  const head = `${total} message${total === 1 ? "" : "s"} in ${folder} match ${query}${total > messages.length ? `; showing the newest ${messages.length}` : ""}:`;
  return [head, ...messages.map((m, i) => `\n${i + 1}. ${m.subject}\n   From: ${m.from}\n   Date: ${m.date}\n\n${m.body}`)].join("\n");
}
