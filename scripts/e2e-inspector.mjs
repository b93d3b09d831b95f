// End-to-end check of the inspector page in a real browser: Debian's Chromium, driven by
// puppeteer-core, against `wrangler dev`. Logs in with a key, opens a session, sees a file
// written through the API appear, runs a command in the terminal and sees its output stream,
// sees a denial in the log, uses the checkpoint timeline (diff, restore, fork), and checks that a
// hostile file name, file content and status text
// are shown as text. Screenshots go to test-results/. Run by `npm test`.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import puppeteer from "puppeteer-core";
import { client, freePort, root, startDevServer, stopDevServer } from "./lib/dev-server.mjs";
import { check, finish } from "./lib/e2e-checks.mjs";

const ALICE = "e2e-inspect-alice";
const BOB = "e2e-inspect-bob";
const CHROMIUM = "/usr/bin/chromium";
const shots = join(root, "test-results");
const HOSTILE_NAME = "<img src=x onerror=window.__pwned=1>.txt";
const HOSTILE_CONTENT = '<script>window.__pwned=2</script><iframe src="javascript:window.__pwned=3"></iframe>\n';
const HOSTILE_STATUS = "<svg onload=window.__pwned=4></svg><b onmouseover=window.__pwned=5>busy</b>";

/** A small valid PNG (8x8, one colour), for the image preview. */
function png() {
  const crc = (buf) => {
    let c = ~0;
    for (const b of buf) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
  };
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(8, 0);
  ihdr.writeUInt32BE(8, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: 8 }, () => Buffer.from([0, ...Array(8).fill([53, 99, 201]).flat()])));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

const state = mkdtempSync(join(tmpdir(), "toolshed-e2e-inspect-"));
let server;
let browser;
try {
  mkdirSync(shots, { recursive: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = await startDevServer({ port, stateDir: state, apiKeys: `alice=${ALICE},bob=${BOB}` });
  const alice = client(port, ALICE);
  const bob = client(port, BOB);
  const put = (id, path, bytes) => fetch(`${base}/v1/sessions/${id}/files/${path}`, { method: "PUT", headers: { authorization: `Bearer ${ALICE}` }, body: bytes });

  const { body: session } = await alice("POST", "/v1/sessions", {});
  const { body: theirs } = await bob("POST", "/v1/sessions", {});
  const t = (name, args) => alice("POST", `/v1/sessions/${session.id}/tools/${name}`, args);
  await t("write_file", { path: "src/app.ts", content: "export const answer = 42;\nconsole.log(answer);\n" });
  await t("write_file", { path: HOSTILE_NAME, content: HOSTILE_CONTENT });
  await t("write_file", { path: ".env", content: "SECRET=hunter2\n" });
  await t("set_status", { status: HOSTILE_STATUS });
  await put(session.id, "pixel.png", png());
  await put(session.id, "blob.bin", Buffer.from([0, 1, 2, 0xff, 0xfe, 0x41, 0x42, 0x00, 0x10]));

  const page0 = await fetch(`${base}/inspect/`);
  check(
    "the page is served with a content security policy",
    page0.status === 200 && /script-src 'self'/.test(page0.headers.get("content-security-policy") ?? ""),
    `${page0.status} ${page0.headers.get("content-security-policy")}`,
  );

  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking", "--disable-component-update"],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1366, height: 768 });
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(`${base}/inspect/`, { waitUntil: "networkidle0" });
  await page.waitForSelector("#login:not([hidden])");
  await page.screenshot({ path: join(shots, "inspector-login.png") });

  // Log in with the key; the page keeps only an HttpOnly cookie.
  await page.type("#key", ALICE);
  await page.click("#login button[type=submit]");
  await page.waitForSelector(`#session-rows tr[data-id="${session.id}"]`, { timeout: 15_000 });
  const cookies = await browser.cookies();
  const cookie = cookies.find((c) => c.name === "toolshed_inspect");
  check(
    "login sets an HttpOnly, SameSite=Strict cookie that is not the key",
    cookie?.httpOnly === true && cookie.sameSite === "Strict" && !cookie.value.includes(ALICE),
    JSON.stringify(cookie),
  );
  check("the page's script cannot read the cookie", (await page.evaluate(() => document.cookie)) === "");
  const rows = await page.$$eval("#session-rows tr", (trs) => trs.map((tr) => tr.dataset.id));
  check("the tenant's session is listed, another tenant's is not", rows.includes(session.id) && !rows.includes(theirs.id), JSON.stringify(rows));

  // Open the session: tree, status line, log, terminal.
  await page.click(`#session-rows tr[data-id="${session.id}"]`);
  await page.waitForFunction((s) => document.getElementById("status-line").textContent.includes(s), {}, HOSTILE_STATUS);
  check("the status line shows the status text literally", true);
  await page.waitForFunction((n) => [...document.querySelectorAll("#tree button")].some((b) => b.textContent === n), {}, HOSTILE_NAME);
  check("a hostile file name is listed as text", true);

  // A file written through the API appears in the tree by itself.
  await t("write_file", { path: "live/fresh.txt", content: "written while watching\nsecond line\n" });
  const appeared = await page
    .waitForFunction(() => [...document.querySelectorAll("#tree button")].some((b) => b.textContent.startsWith("▸ live/")), { timeout: 10_000 })
    .then(
      () => true,
      () => false,
    );
  check("a file written through the API appears in the tree", appeared);
  await page.evaluate(() => [...document.querySelectorAll("#tree button")].find((b) => b.textContent.startsWith("▸ live/")).click());
  await page.waitForFunction(() => [...document.querySelectorAll("#tree button")].some((b) => b.textContent === "fresh.txt"));
  await page.evaluate(() => [...document.querySelectorAll("#tree button")].find((b) => b.textContent === "fresh.txt").click());
  await page.waitForFunction(() => document.querySelector("#preview-body pre.lines")?.textContent.includes("second line"));
  const numbered = await page.$$eval("#preview-body pre.lines span.n", (ns) => ns.map((n) => n.textContent));
  check("a text preview has line numbers", JSON.stringify(numbered) === '["1","2"]', JSON.stringify(numbered));

  // The hostile file's content is text too.
  await page.evaluate((n) => [...document.querySelectorAll("#tree button")].find((b) => b.textContent === n).click(), HOSTILE_NAME);
  await page.waitForFunction((c) => document.querySelector("#preview-body pre.lines")?.textContent.includes(c.trim()), {}, HOSTILE_CONTENT);
  check("hostile file content is previewed as text", true);

  // Image and binary previews, and a download through the cookie.
  await page.evaluate(() => [...document.querySelectorAll("#tree button")].find((b) => b.textContent === "pixel.png").click());
  const imageShown = await page
    .waitForFunction(
      () => {
        const img = document.querySelector("#preview-body img");
        return img && img.complete && img.naturalWidth === 8 && img.src.startsWith("blob:");
      },
      { timeout: 5000 },
    )
    .then(
      () => true,
      () => false,
    );
  check("an image is previewed as an image", imageShown);
  await page.evaluate(() => [...document.querySelectorAll("#tree button")].find((b) => b.textContent === "blob.bin").click());
  const hex = await page
    .waitForFunction(() => document.querySelector("#preview-body pre.lines")?.textContent.startsWith("00000000  00 01 02 ff fe 41 42 00 10"), { timeout: 5000 })
    .then(
      () => true,
      () => false,
    );
  check("a binary file is previewed as hex", hex);
  const download = await page.evaluate(async () => {
    const a = [...document.querySelectorAll("#tree li.file")].find((li) => li.querySelector("button").textContent === "blob.bin").querySelector("a");
    const r = await fetch(a.href);
    return { status: r.status, size: (await r.arrayBuffer()).byteLength, name: a.getAttribute("download") };
  });
  check("the download link serves the file", download.status === 200 && download.size === 9 && download.name === "blob.bin", JSON.stringify(download));

  // The terminal: output streams while the command runs.
  await page.waitForFunction(() => document.getElementById("terminal-state").textContent === "connected");
  await page.click("#terminal");
  await page.keyboard.type("for i in 1 2 3; do echo line$i; sleep 1; done");
  await page.keyboard.press("Enter");
  const seen = {};
  const t0 = Date.now();
  while (!seen.line3 && Date.now() - t0 < 15_000) {
    const text = await page.$eval("#terminal .xterm-rows", (r) => r.textContent);
    for (const m of ["line1", "line2", "line3"]) if (!seen[m] && text.includes(m)) seen[m] = Date.now() - t0;
    await new Promise((r) => setTimeout(r, 50));
  }
  check(
    "terminal output streams as it is produced (line1, line2, line3 about a second apart)",
    seen.line3 && seen.line2 - seen.line1 > 600 && seen.line3 - seen.line2 > 600,
    JSON.stringify(seen),
  );
  console.log(`     terminal lines first seen at ${JSON.stringify(seen)} ms after Enter`);
  await page.screenshot({ path: join(shots, "inspector-terminal.png") });

  // A refused command: shown in the terminal, and as a denial (rule and reason) in the log.
  await page.keyboard.type("cat .env");
  await page.keyboard.press("Enter");
  await page.waitForFunction(
    () =>
      document.querySelector("#terminal .xterm-rows").textContent.includes("denied (dotenv)") ||
      document.querySelector("#terminal .xterm-rows").textContent.includes("Refused"),
    { timeout: 10_000 },
  );
  const terminalText = await page.$eval("#terminal .xterm-rows", (r) => r.textContent);
  check("the terminal never shows the secret", !terminalText.includes("hunter2"));
  const denial = await page
    .waitForFunction(() => [...document.querySelectorAll("#log-rows tr.denied")].some((tr) => tr.textContent.includes("dotenv:")), { timeout: 10_000 })
    .then(
      () => true,
      () => false,
    );
  check("the denial appears in the tool-call log with its rule and reason", denial);
  await page.select("#log-outcome", "denied");
  const outcomes = await page.$$eval("#log-rows tr", (trs) => trs.map((tr) => tr.className));
  check("the log filters by outcome", outcomes.length >= 1 && outcomes.every((c) => c === "denied"), JSON.stringify(outcomes));
  await page.select("#log-outcome", "");
  await page.type("#log-text", "write_file");
  const tools = await page.$$eval("#log-rows tr td:nth-child(2)", (tds) => tds.map((td) => td.textContent));
  check("the log filters by text", tools.length === 4 && tools.every((x) => x === "write_file"), JSON.stringify(tools));
  await page.$eval("#log-text", (input) => {
    input.value = "";
    input.dispatchEvent(new Event("input"));
  });

  // The status line follows the session live.
  await t("set_status", { status: "compiling step 2 of 3" });
  const live = await page
    .waitForFunction(() => document.getElementById("status-line").textContent.includes("compiling step 2 of 3"), { timeout: 10_000 })
    .then(
      () => true,
      () => false,
    );
  check("the status line updates live", live);
  await page.screenshot({ path: join(shots, "inspector.png") });

  // Nothing hostile became markup: no element carries an event handler, none of the injected tags exists.
  const markup = await page.evaluate(() => ({
    handlers: [...document.querySelectorAll("*")].filter((e) => [...e.attributes].some((a) => a.name.startsWith("on"))).map((e) => e.outerHTML.slice(0, 80)),
    injected: document.querySelectorAll('img[src="x"], iframe, svg, script:not([src])').length,
    pwned: window.__pwned ?? null,
  }));
  check("no hostile text became an element or a handler", markup.handlers.length === 0 && markup.injected === 0 && markup.pwned === null, JSON.stringify(markup));
  const html = await page.content();
  check("the page never shows a key", !html.includes(ALICE) && !html.includes(BOB));

  // Reconnecting shows the recent output again.
  await page.reload({ waitUntil: "networkidle0" });
  const replayed = await page
    .waitForFunction(() => document.querySelector("#terminal .xterm-rows")?.textContent.includes("line3"), { timeout: 10_000 })
    .then(
      () => true,
      () => false,
    );
  check("a reopened terminal replays the recent output", replayed);

  // The timeline: checkpoints beside the log, a diff view, restore and fork buttons.
  const cp = (await alice("POST", `/v1/sessions/${session.id}/checkpoints`, { label: "before the edit" })).body;
  await t("write_file", { path: "src/app.ts", content: "export const answer = 43;\nconsole.log(answer);\n" });
  const listed = await page
    .waitForFunction((id) => !!document.querySelector(`#checkpoint-rows tr[data-id="${id}"]`), { timeout: 10_000 }, cp.id)
    .then(
      () => true,
      () => false,
    );
  check("the checkpoints are listed beside the log", listed);
  const linked = await page
    .waitForFunction(() => [...document.querySelectorAll("#log-rows button.cp-link")].length > 0, { timeout: 10_000 })
    .then(
      () => true,
      () => false,
    );
  check("the log links file-changing calls to their checkpoints", linked);
  await page.click(`#checkpoint-rows tr[data-id="${cp.id}"] button.cp-diff`);
  const diffShown = await page
    .waitForFunction(
      () => {
        const text = document.querySelector("#preview-body pre.diff")?.textContent ?? "";
        return text.includes("diff --git a/src/app.ts b/src/app.ts") && text.includes("-export const answer = 42;") && text.includes("+export const answer = 43;");
      },
      { timeout: 10_000 },
    )
    .then(
      () => true,
      () => false,
    );
  check("the diff view shows the change since a checkpoint, as git prints it", diffShown);
  await page.screenshot({ path: join(shots, "inspector-timeline.png") });
  page.on("dialog", (d) => d.accept());
  await page.click(`#checkpoint-rows tr[data-id="${cp.id}"] button.cp-restore`);
  await page.waitForFunction(() => document.getElementById("timeline-message").textContent.startsWith("Restored"), { timeout: 10_000 }).catch(() => {});
  const restored = await fetch(`${base}/v1/sessions/${session.id}/files/src/app.ts`, { headers: { authorization: `Bearer ${ALICE}` } }).then((r) => r.text());
  check("the restore button puts the checkpoint back", restored.includes("answer = 42"), restored);
  const before = (await alice("GET", "/v1/sessions")).body.sessions.length;
  await page.click(`#checkpoint-rows tr[data-id="${cp.id}"] button.cp-fork`);
  await page.waitForFunction(() => document.getElementById("timeline-message").textContent.startsWith("Forked"), { timeout: 20_000 }).catch(() => {});
  const forked = (await alice("GET", "/v1/sessions")).body.sessions;
  check("the fork button makes a new session of the same tenant", forked.length === before + 1, `${before} → ${forked.length}`);
  // The cookie acts only from the page's own origin, and only for these two actions.
  const cookieHeader = { cookie: `toolshed_inspect=${cookie.value}`, "content-type": "application/json" };
  const foreign = await fetch(`${base}/v1/sessions/${session.id}/checkpoints/${cp.id}/restore`, {
    method: "POST",
    headers: { ...cookieHeader, origin: "http://evil.test" },
    body: "{}",
  });
  const noOrigin = await fetch(`${base}/v1/sessions/${session.id}/checkpoints/${cp.id}/restore`, { method: "POST", headers: cookieHeader, body: "{}" });
  const other = await fetch(`${base}/v1/sessions/${session.id}/checkpoints`, { method: "POST", headers: { ...cookieHeader, origin: base }, body: "{}" });
  check(
    "the cookie cannot restore from another origin, without an origin, or do anything else",
    foreign.status === 401 && noOrigin.status === 401 && other.status === 401,
    `${foreign.status} ${noOrigin.status} ${other.status}`,
  );

  // Logging out ends the cookie's use.
  await page.click("#logout");
  await page.waitForSelector("#login:not([hidden])");
  const after = await page.evaluate(async () => (await fetch("/v1/sessions")).status);
  check("after logout the API answers 401", after === 401, String(after));
  check("no script errors on the page", pageErrors.length === 0, pageErrors.join("; "));
} catch (e) {
  check("inspector e2e run", false, String(e?.stack ?? e));
} finally {
  await browser?.close();
  if (server) await stopDevServer(server);
  rmSync(state, { recursive: true, force: true });
}
finish();
