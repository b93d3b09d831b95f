import { authenticate } from "./http/auth";
import { inspectorPage } from "./http/inspector-page";
import { inspectorLogin } from "./http/inspector-session";
import { openApiResponse } from "./http/openapi";
import { signedDownload } from "./http/outbox";
import { httpError } from "./http/respond";
import { router } from "./http/router";
import { serverTiming, startLaps } from "./lib/server-timing";

export { SessionDO } from "../durable-objects/session";
export { TenantDO } from "../durable-objects/tenant";
export { ToolshedRPC } from "./rpc";

/** Adds the request's phases as `Server-Timing` (see lib/server-timing.ts); a response whose
 * headers cannot change (a WebSocket upgrade, a proxied one) goes out as it is. */
function withTiming(res: Response, phases: Record<string, number>): Response {
  try {
    res.headers.set("server-timing", serverTiming(phases));
  } catch {
    // immutable headers
  }
  return res;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    try {
      // A sent file's signed link is its own credential, the inspector's page and login and the
      // OpenAPI document (no tenant data) need none; everything else needs the API key (or the
      // inspector's cookie).
      const openapi = openApiResponse(request, env);
      if (openapi) return openapi;
      const download = await signedDownload(request, env);
      if (download) return download;
      const inspector = inspectorLogin(request, env);
      if (inspector) return await inspector;
      const page = await inspectorPage(request, env);
      if (page) return page;
      const laps = startLaps(request);
      const auth = await authenticate(request, env);
      if (!auth.ok) return httpError(401, "unauthorized", auth.message, {});
      laps.lap("auth");
      const res = await router.fetch(request, env, auth.tenant);
      return withTiming(res, laps.phases);
    } catch (e) {
      console.error("request failed", e);
      return httpError(500, "internal_error", "Internal error; the request may be retried.");
    }
  },
} satisfies ExportedHandler<Env>;
