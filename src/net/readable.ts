/**
 * HTML to readable Markdown: linkedom builds the document, Mozilla's Readability picks the
 * main content (dropping navigation and boilerplate), turndown writes Markdown (headings,
 * lists, links kept). The libraries are imported on first use so that requests which never
 * read HTML do not pay for evaluating them.
 */
export interface Readable {
  title: string;
  markdown: string;
}

const DROP = ["script", "style", "noscript", "template", "iframe", "svg", "canvas", "form", "nav", "footer", "header", "aside"] as const;

export async function htmlToMarkdown(html: string, baseUrl: string, readable: boolean): Promise<Readable> {
  const [{ parseHTML }, { Readability }, { default: TurndownService }] = await Promise.all([
    import("linkedom"),
    import("@mozilla/readability"),
    import("turndown"),
  ]);
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
  if (readable) {
    const article = new Readability(document.cloneNode(true) as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 100 }).parse();
    if (article?.content) contentHtml = article.content;
  }
  const root = parseHTML(`<!doctype html><html><body>${contentHtml ?? document.body?.innerHTML ?? ""}</body></html>`).document.body;
  for (const tag of DROP) for (const el of root.querySelectorAll(tag)) el.remove();
  const td = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  const markdown = td.turndown(root as unknown as Parameters<typeof td.turndown>[0]).replace(/\n{3,}/g, "\n\n").trim();
  return { title, markdown };
}
