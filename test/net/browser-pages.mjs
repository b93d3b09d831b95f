// Pages for the browser tool's tests (test/tools/browser.test.ts), served by the allowed site.
// `leaky.html` makes requests the URL policy must refuse: the cloud metadata address and a
// loopback address (the canary's port, so one that got through would be counted there).

/** The HTML of /browser/<name>, or null when there is no such page. */
export function browserPage(name, ports) {
  if (name === "home.html") {
    return `<!doctype html><html><head><title>Kelp Home</title></head><body><h1>Kelp forests</h1>
<p id="marker">BROWSER_HOME_MARKER</p>
<div role="img" aria-label="Kelp badge" style="width:120px;height:40px;background:green"></div><a href="/browser/second.html">Second</a></body></html>`;
  }
  if (name === "second.html") {
    return `<!doctype html><html><head><title>Second Page</title></head><body><p>SECOND_PAGE_MARKER</p></body></html>`;
  }
  if (name === "leaky.html") {
    return `<!doctype html><html><head><title>Leaky Page</title></head><body>
<p>LEAKY_PAGE_LOADED</p>
<img src="http://169.254.169.254/latest/meta-data/iam">
<img src="http://127.0.0.1:${ports.canary}/browser-leak.png">
<img src="/browser/pixel.svg" id="allowed" onload="document.title='Leaky Page (allowed image loaded)'">
</body></html>`;
  }
  if (name === "ws.html") {
    // An allowed WebSocket (the site's own) and two the policy must refuse: the metadata address
    // and the canary's loopback port. The title reports what each one saw.
    return `<!doctype html><html><head><title>WebSockets</title></head><body><p>WS_PAGE_LOADED</p><script>
const seen = { allowed: "", metadata: "", canary: "" };
const show = () => { document.title = "allowed=" + seen.allowed + " metadata=" + seen.metadata + " canary=" + seen.canary; };
const open = (name, url) => {
  const ws = new WebSocket(url);
  ws.onmessage = (e) => { seen[name] = "message:" + e.data; show(); };
  ws.onclose = (e) => { if (!seen[name]) seen[name] = "closed:" + e.code; show(); };
};
open("allowed", "ws://127.0.0.1:${ports.site}/browser/ws");
open("metadata", "ws://169.254.169.254/socket");
open("canary", "ws://127.0.0.1:${ports.canary}/ws-leak");
</script></body></html>`;
  }
  if (name === "form.html") {
    return `<!doctype html><html><head><title>Greeting Form</title></head><body>
<form action="/echo" method="get"><label for="who">Your name</label><input id="who" name="name">
<button type="submit">Send greeting</button></form></body></html>`;
  }
  if (name === "big.html") {
    return `<!doctype html><html><head><title>Big</title></head><body><p>${"kelp ".repeat(30_000)}</p></body></html>`;
  }
  return null;
}

export const PIXEL_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="green"/></svg>`;
