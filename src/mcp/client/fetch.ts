import type { FetchLike } from "@modelcontextprotocol/client";
import type { NetContext } from "../../net/context";
import { NetError } from "../../net/errors";
import { openFetch } from "../../net/fetch";
import { PolicyDenied, type Denial } from "../../policy/denied";
import type { RemoteServer } from "./config";

/** What went wrong below the MCP client, kept because the client re-wraps errors in its own words. */
export interface FetchTrouble {
  denied?: Denial;
  network?: NetError;
  tooLarge?: number;
}

/**
 * The MCP client's fetch: Toolshed's fetch path, so every request and every redirect hop is
 * judged by the one URL policy. The server's credential headers go only to its own origin;
 * answers are streamed (Server-Sent Events) and cut off past `maxBytes`.
 */
export function policyFetch(net: NetContext, server: RemoteServer, limits: { timeoutMs: number; maxBytes: number }, trouble: FetchTrouble): FetchLike {
  return async (url, init = {}) => {
    const body = init.body == null ? undefined : new Uint8Array(await new Response(init.body).arrayBuffer());
    let opened;
    try {
      opened = await openFetch(net, String(url), {
        method: init.method,
        headers: Object.fromEntries(new Headers(init.headers).entries()),
        originHeaders: server.headers,
        body,
        timeoutMs: limits.timeoutMs,
        signal: init.signal ?? undefined,
      });
    } catch (e) {
      if (e instanceof PolicyDenied) trouble.denied = e.denial;
      else if (e instanceof NetError) trouble.network = e;
      throw e;
    }
    const res = opened.response;
    return new Response(res.body && capped(res.body, limits.maxBytes, trouble), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

function capped(body: ReadableStream<Uint8Array>, maxBytes: number, trouble: FetchTrouble): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) {
          trouble.tooLarge = maxBytes;
          controller.error(new Error(`answer over ${maxBytes} bytes`));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}
