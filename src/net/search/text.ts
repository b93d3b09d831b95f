import { decodeHTML } from "entities";

/** Engine snippets carry highlight markup (`<strong>`, `<b>`) and entities; the agent wants text. */
export function plainText(html: string): string {
  return decodeHTML(html.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
}
