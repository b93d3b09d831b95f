/**
 * HTML to readable Markdown: linkedom builds the document, Mozilla's Readability picks the
 * main content (dropping navigation and boilerplate), turndown writes Markdown (headings,
 * lists, links kept). The libraries are imported on first use so that requests which never
 * read HTML do not pay for evaluating them.
 */
export interface Readable {
  title: string;
  markdown: string;
  /** Only the start of the page was converted (the rest could not fit the output). */
  cut: boolean;
}

const DROP = ["script", "style", "noscript", "template", "iframe", "svg", "canvas", "form", "nav", "footer", "header", "aside"] as const;

/**
 * Readability scores every node of the page; past this size it costs seconds, so a larger
 * page is reduced by dropping the boilerplate tags alone.
 */
const READABILITY_MAX_CHARS = 512 * 1024;

/**
 * The Markdown is cut at `maxChars` anyway, so only about that much HTML (with room for
 * markup) is converted; the cut lands between tags and the parser closes what it left open.
 */
function htmlPrefix(html: string, maxChars: number): string {
  const budget = maxChars * 4;
  if (html.length <= budget) return html;
  const cut = html.lastIndexOf("<", budget);
  return html.slice(0, cut > 0 ? cut : budget);
}

export async function htmlToMarkdown(html: string, baseUrl: string, maxChars: number): Promise<Readable> {
  const [{ parseHTML }, { Readability }, { default: TurndownService }] = await Promise.all([import("linkedom"), import("@mozilla/readability"), import("turndown")]);
  const { document } = parseHTML(html);
  // Relative links in the article become absolute against the page's final URL.
  if (!document.querySelector("base")) {
    const base = document.createElement("base");
    base.setAttribute("href", baseUrl);
    document.head?.appendChild(base);
  }
  for (const a of document.querySelectorAll("a[href]")) {
    try {
      a.setAttribute("href", new URL(a.getAttribute("href")!, baseUrl).href);
    } catch {
      /* leave a malformed href as it is */
    }
  }
  const title = (document.querySelector("title")?.textContent ?? "").trim();
  let contentHtml: string | null = null;
  if (html.length <= READABILITY_MAX_CHARS) {
    const article = new Readability(document.cloneNode(true) as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 100 }).parse();
    if (article?.content) contentHtml = article.content;
  }
  const full = contentHtml ?? document.body?.innerHTML ?? "";
  const chosen = htmlPrefix(full, maxChars);
  const root = parseHTML(`<!doctype html><html><body>${chosen}</body></html>`).document.body;
  for (const tag of DROP) for (const el of root.querySelectorAll(tag)) el.remove();
  const td = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  const markdown = td
    .turndown(root as unknown as Parameters<typeof td.turndown>[0])
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title, markdown, cut: chosen.length < full.length };
}
