import { z } from "zod";
import { bodyKind, decodeText, mediaType } from "./body";
import { netContextFromEnv } from "../../net/context";
import { NetError } from "../../net/errors";
import { safeFetch } from "../../net/fetch";
import { htmlToMarkdown } from "../../net/readable";
import { ToolError } from "../result";
import { defineTool, type ToolContext } from "../types";
import { LIMITS } from "../../limits";

const WEB_FETCH_MAX_CHARS = 50_000;
/** Bytes read from the network at most; a larger page is refused with its size. */
const WEB_FETCH_MAX_BYTES = LIMITS.webFetchBytes;
const DEFAULT_TIMEOUT_MS = LIMITS.webFetchTimeoutMs;
/** Markdown first: some sites serve it to agents, and it needs no extraction. */
const ACCEPT = "text/markdown, text/html;q=0.9, application/json;q=0.8, text/plain;q=0.8, */*;q=0.5";

const params = z.object({
  url: z.string().min(1).describe("Absolute http:// or https:// URL to fetch"),
  readable: z.boolean().optional().describe("When true (default), HTML is reduced to its main content as Markdown; when false, the raw body is returned"),
  timeout_ms: z.number().int().min(1).max(90_000).optional().describe(`Wall-clock timeout in milliseconds (default ${DEFAULT_TIMEOUT_MS}, maximum 90000)`),
});

export const netOf = (ctx: ToolContext) => ctx.net ?? netContextFromEnv({});

/** `partial`: the text is already only the start of the page (see htmlToMarkdown). */
function capped(text: string, partial: boolean): { output: string; truncated: boolean } {
  if (text.length <= WEB_FETCH_MAX_CHARS && !partial) return { output: text, truncated: false };
  const shown = Math.min(text.length, WEB_FETCH_MAX_CHARS);
  const of = partial ? "a longer page" : `${text.length.toLocaleString("en-US")} characters`;
  return {
    output: `${text.slice(0, WEB_FETCH_MAX_CHARS)}\n\n[Truncated: showing the first ${shown.toLocaleString("en-US")} characters of ${of}.]`,
    truncated: true,
  };
}

/** NetErrors read as tool errors; policy refusals pass through to carry `denied`. */
function netFailure(e: unknown, url: string): never {
  if (e instanceof NetError) {
    const hint =
      e.code === "timeout"
        ? " Retry with a larger timeout_ms (at most 90000) or another URL."
        : e.code === "dns"
          ? " Check the host name."
          : e.code === "too_many_redirects"
            ? " The page redirects in a loop or too deep; fetch the final URL directly."
            : "";
    throw new ToolError(`Fetching ${url.slice(0, 300)} failed: ${e.message}${hint}`);
  }
  throw e;
}

export const webFetch = defineTool({
  name: "web_fetch",
  description:
    "Fetch a public http(s) URL with GET and return its content: HTML as readable Markdown (main content, headings, lists, links), JSON pretty-printed, text as is. Follows up to 5 redirects; times out after 30 s by default; output truncated at 50,000 characters. Private, loopback and cloud metadata addresses are refused.",
  params,
  readOnly: true,
  async run(ctx, args) {
    const timeoutMs = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    const res = await safeFetch(netOf(ctx), args.url, {
      headers: { accept: ACCEPT, "user-agent": "Toolshed-web_fetch/1.0" },
      timeoutMs,
      maxBytes: WEB_FETCH_MAX_BYTES,
    }).catch((e: unknown) => netFailure(e, args.url));
    const contentType = res.headers.get("content-type");
    const meta = { url: res.url, status: res.status, content_type: mediaType(contentType) || "unknown" };
    if (res.truncated) {
      throw new ToolError(
        `${res.url} is larger than the ${WEB_FETCH_MAX_BYTES / 1024 / 1024} MiB limit of web_fetch (content type ${meta.content_type}); download it with curl -o in the bash tool instead.`,
      );
    }
    const kind = bodyKind(contentType, res.body);
    if (kind === "binary") {
      return {
        success: false,
        error: `${res.url} is binary (${meta.content_type}, ${res.body.length} bytes); web_fetch returns text only. Download it with curl -o FILE in the bash tool.`,
        ...meta,
        size: res.body.length,
      };
    }
    const text = decodeText(contentType, res.body);
    let content = text;
    let title: string | undefined;
    let partial = false;
    if (kind === "json" && args.readable !== false) {
      try {
        content = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        /* not valid JSON after all: returned as text */
      }
    } else if (kind === "html" && args.readable !== false) {
      const r = await htmlToMarkdown(text, res.url, WEB_FETCH_MAX_CHARS);
      title = r.title || undefined;
      partial = r.cut;
      content = title && !r.markdown.startsWith("# ") ? `# ${title}\n\n${r.markdown}` : r.markdown;
    }
    const { output, truncated } = capped(content, partial);
    const ok = res.status < 400;
    return {
      success: ok,
      output,
      ...meta,
      ...(title ? { title } : {}),
      ...(truncated ? { truncated: true } : {}),
      ...(ok ? {} : { error: `The server answered HTTP ${res.status} ${res.statusText}; the body is in output.` }),
    };
  },
});
