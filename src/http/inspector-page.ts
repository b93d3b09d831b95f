/**
 * The inspector's static files (public/inspect/), served by the Worker so each answer carries
 * the page's security headers: scripts from this origin only (no inline script, so even markup
 * that slipped into the DOM could not run), no framing, no referrer.
 */
const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

/** The page's files for GET /inspect and below, or null for every other request. */
export async function inspectorPage(request: Request, env: Env): Promise<Response | null> {
  const url = new URL(request.url);
  if (url.pathname !== "/inspect" && !url.pathname.startsWith("/inspect/")) return null;
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const asset = await env.ASSETS.fetch(request);
  const response = new Response(asset.body, asset);
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) response.headers.set(k, v);
  return response;
}
