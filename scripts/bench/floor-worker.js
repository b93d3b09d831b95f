// The benchmarks' floor: the least a Worker can do, served by the same `wrangler dev` as the
// project, so a row "over floor" is what Toolshed itself costs.
// - any other request: "ok" (scripts/bench/latency.mjs);
// - `PUT /bytes`: reads the body to its end, one chunk at a time, and answers its length;
// - `GET /bytes?n=N`: streams N bytes (a 256 KiB block, repeated) with their length declared.
// The last two are the peer of a 100 MB upload and download (scripts/bench/workspace.mjs).
const BLOCK = 256 * 1024;

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname !== "/bytes") return new Response("ok");
    if (request.method === "PUT") {
      let n = 0;
      const reader = request.body?.getReader();
      for (let r = await reader?.read(); r && !r.done; r = await reader.read()) n += r.value.length;
      return Response.json({ size: n });
    }
    const n = Number(url.searchParams.get("n") ?? 0);
    const block = new Uint8Array(BLOCK).map((_, i) => i & 0xff);
    let sent = 0;
    const body = new ReadableStream({
      pull(controller) {
        const len = Math.min(BLOCK, n - sent);
        if (len <= 0) return controller.close();
        controller.enqueue(block.slice(0, len));
        sent += len;
      },
    });
    return new Response(body, { headers: { "content-length": String(n), "content-type": "application/octet-stream" } });
  },
};
