import { looksBinary } from "../files/text";

/** How a response body is to be treated, from its content type and its first bytes. */
export type BodyKind = "html" | "json" | "text" | "binary";

const TEXT_TYPES =
  /^(text\/|application\/(xml|xhtml\+xml|rss\+xml|atom\+xml|javascript|ecmascript|x-javascript|yaml|x-yaml|toml|x-sh|x-www-form-urlencoded|graphql)|image\/svg\+xml)/;

export function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

export function bodyKind(contentType: string | null, body: Uint8Array): BodyKind {
  const type = mediaType(contentType);
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (TEXT_TYPES.test(type)) return "text";
  if (type === "" || type === "application/octet-stream") {
    if (looksBinary(body)) return "binary";
    return /^\s*<(!doctype html|html)/i.test(new TextDecoder().decode(body.subarray(0, 512))) ? "html" : "text";
  }
  return looksBinary(body) ? "binary" : "text";
}

/** Decodes text in the charset the response names (UTF-8 when none or unknown). */
export function decodeText(contentType: string | null, body: Uint8Array): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder().decode(body);
  }
}
