// Browser benchmark (issue 9): launch, navigate, snapshot and content of a local page through
// the `browser` tool of a real `wrangler dev` (local Browser Rendering = Debian's Chromium).
import { withSiteAndWorker } from "./site-worker.mjs";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchBrowser(print) {
  await withSiteAndWorker("browser", async (api, site) => {
    const id = (await api("POST", "/v1/sessions", {})).body.id;
    const call = async (args) => {
      const t = performance.now();
      const r = await api("POST", `/v1/sessions/${id}/tools/browser`, args);
      if (r.status !== 200 || !r.body.success) throw new Error(`${args.action}: ${JSON.stringify(r.body).slice(0, 200)}`);
      return performance.now() - t;
    };
    try {
      print("browser launch (cold Chromium)", await call({ action: "launch" }), "ms");
      const page = `${site}/browser/form.html`;
      for (const [label, args] of [
        ["browser navigate to a local form page", { action: "navigate", url: page }],
        ["browser snapshot of that page", { action: "snapshot" }],
        ["browser content of that page", { action: "content" }],
      ]) {
        const times = [];
        for (let i = 0; i < 5; i++) times.push(await call(args));
        print(label, median(times), "ms", "median of 5");
      }
    } finally {
      await api("POST", `/v1/sessions/${id}/tools/browser`, { action: "close" }).catch(() => undefined);
    }
  });
}
