// The inspector page: plain DOM, every piece of data set as text nodes (never parsed as markup),
// so a file name, file content or status text is shown as text whatever it contains.
const $ = (id) => document.getElementById(id);
const API = "/v1";
const PREVIEW_BYTES = 256 * 1024;
const HEX_BYTES = 4096;
const IMAGE_TYPES = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  ico: "image/x-icon",
  svg: "image/svg+xml",
};

/** el("td", {class: "x"}, "text", child): an element whose text children are text nodes. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

const state = { session: null, expanded: new Set(["/workspace"]), timers: [], socket: null, term: null, line: "", log: [] };

async function getJson(path) {
  const r = await fetch(path, { credentials: "same-origin" });
  if (r.status === 401) throw Object.assign(new Error("logged out"), { loggedOut: true });
  const body = await r.json();
  if (!r.ok) throw new Error(body.denied ? `${body.message} (rule ${body.denied.rule})` : body.message);
  return body;
}

const fmtTime = (iso) => new Date(iso).toLocaleString();
const fmtBytes = (n) => (n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`);
const filesUrl = (path) => `${API}/sessions/${state.session}/files/${path.split("/").map(encodeURIComponent).join("/")}`;

// ---- login ----------------------------------------------------------------------------------

function showLogin(message = "") {
  stopSession();
  $("app").hidden = true;
  $("logout").hidden = true;
  $("who").textContent = "";
  $("login").hidden = false;
  $("login-error").textContent = message;
}

$("login").addEventListener("submit", async (e) => {
  e.preventDefault();
  const key = $("key").value;
  $("key").value = "";
  const r = await fetch("/inspect/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key }) });
  const body = await r.json();
  if (!r.ok) return showLogin(body.message);
  $("who").textContent = `tenant ${body.tenant} · until ${new Date(body.expiresAt).toLocaleTimeString()}`;
  start();
});

$("logout").addEventListener("click", async () => {
  await fetch("/inspect/logout", { method: "POST" });
  showLogin();
});

function handle(e) {
  if (e.loggedOut) showLogin("Your login has expired; log in again.");
  else console.error(e);
}

// ---- sessions -------------------------------------------------------------------------------

async function loadSessions() {
  const { sessions } = await getJson(`${API}/sessions`);
  $("no-sessions").hidden = sessions.length > 0;
  $("session-rows").replaceChildren(
    ...sessions.map((s) => {
      const row = el(
        "tr",
        { "data-id": s.id, class: s.id === state.session ? "selected" : "" },
        el("td", {}, s.id.slice(0, 12)),
        el("td", {}, s.profile),
        el("td", {}, fmtTime(s.createdAt)),
        el("td", {}, fmtTime(s.lastUsedAt)),
        el("td", { class: "wrap" }, s.status),
        el("td", {}, `${s.usage.files} files, ${fmtBytes(s.usage.bytes)}, ${s.usage.toolCalls} calls`),
      );
      row.addEventListener("click", () => openSession(s.id));
      return row;
    }),
  );
}

function start() {
  $("login").hidden = true;
  $("app").hidden = false;
  $("logout").hidden = false;
  loadSessions().then(() => {
    const id = new URLSearchParams(location.hash.slice(1)).get("s");
    if (id && /^[0-9a-f]{32}$/.test(id)) openSession(id);
  }, handle);
  state.listTimer = setInterval(() => loadSessions().catch(handle), 5000);
}

function stopSession() {
  state.timers.forEach(clearInterval);
  state.timers = [];
  clearInterval(state.listTimer);
  state.socket?.close();
  state.socket = null;
  state.term?.dispose();
  state.term = null;
}

function openSession(id) {
  stopSession();
  state.listTimer = setInterval(() => loadSessions().catch(handle), 5000);
  state.session = id;
  state.expanded = new Set(["/workspace"]);
  location.hash = `s=${id}`;
  for (const row of $("session-rows").children) row.classList.toggle("selected", row.dataset.id === id);
  $("session").hidden = false;
  $("preview-title").textContent = "Preview";
  $("preview-body").replaceChildren(el("span", { class: "hint" }, "Choose a file."));
  const every = (ms, fn) => {
    fn().catch(handle);
    state.timers.push(setInterval(() => fn().catch(handle), ms));
  };
  every(2000, loadStatus);
  every(2000, loadLog);
  every(3000, loadTree);
  every(3000, loadCheckpoints);
  openTerminal();
}

// ---- status line ----------------------------------------------------------------------------

async function loadStatus() {
  const s = await getJson(`${API}/sessions/${state.session}`);
  $("status-line").replaceChildren(
    el("b", {}, "status: "),
    s.status || "(none)",
    el(
      "span",
      { class: "hint" },
      `  ·  ${s.profile} · cwd ${s.cwd} · ${s.usage.files} files, ${fmtBytes(s.usage.bytes)} of ${fmtBytes(s.usage.maxBytes)} · ${s.usage.toolCalls} calls · last used ${fmtTime(s.lastUsedAt)}`,
    ),
  );
}

// ---- workspace tree and previews ------------------------------------------------------------

async function loadTree() {
  $("tree").replaceChildren(...(await branch("/workspace")));
}

async function branch(dir) {
  const { entries } = await getJson(`${API}/sessions/${state.session}/tree?path=${encodeURIComponent(dir)}`);
  return Promise.all(
    entries.map(async (e) => {
      if (e.kind === "dir") {
        const open = state.expanded.has(e.path);
        const toggle = el("button", { type: "button", title: e.path }, `${open ? "▾" : "▸"} ${e.name}/`);
        toggle.addEventListener("click", () => {
          if (open) state.expanded.delete(e.path);
          else state.expanded.add(e.path);
          loadTree().catch(handle);
        });
        return el("li", { class: "dir" }, toggle, open ? el("ul", {}, ...(await branch(e.path))) : "");
      }
      const name = el("button", { type: "button", title: e.path }, e.name);
      name.addEventListener("click", () => preview(e).catch(handle));
      const download = el("a", { href: filesUrl(e.path), download: e.name, title: "download" }, "⤓");
      return el("li", { class: "file" }, name, el("span", { class: "size" }, fmtBytes(e.size)), download);
    }),
  );
}

/** The first bytes of a file (at most `limit`), and whether there was more. */
async function head(path, limit) {
  const r = await fetch(filesUrl(path), { credentials: "same-origin" });
  if (!r.ok) {
    const body = await r.json();
    throw new Error(body.denied ? `Refused by policy (${body.denied.rule}): ${body.denied.reason}` : body.message);
  }
  const reader = r.body.getReader();
  const parts = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    size += value.length;
  }
  const more = size >= limit;
  if (more) reader.cancel();
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const p of parts) bytes.set(p, (at += p.length) - p.length);
  return { bytes: bytes.subarray(0, limit), more };
}

async function preview(entry) {
  $("preview-title").textContent = `Preview: ${entry.path}`;
  const body = $("preview-body");
  let got;
  try {
    got = await head(entry.path, PREVIEW_BYTES);
  } catch (e) {
    return body.replaceChildren(el("p", { class: "error" }, e.message));
  }
  const note = got.more ? [el("p", { class: "hint" }, `First ${fmtBytes(PREVIEW_BYTES)} of ${fmtBytes(entry.size)}; download for the rest.`)] : [];
  const type = IMAGE_TYPES[entry.name.split(".").pop().toLowerCase()];
  if (type && !got.more) {
    // Shown through <img>: an SVG's scripts never run there.
    const img = el("img", { alt: entry.name, src: URL.createObjectURL(new Blob([got.bytes], { type })) });
    return body.replaceChildren(img);
  }
  let text = null;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(got.bytes);
    if (text.includes("\0")) text = null;
  } catch {
    // not UTF-8 (or cut inside a sequence at the preview limit, shown as bytes then)
  }
  if (text !== null) {
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    const pre = el("pre", { class: "lines" });
    lines.forEach((line, i) => pre.append(el("span", { class: "n" }, i + 1), line, "\n"));
    return body.replaceChildren(...note, pre);
  }
  body.replaceChildren(
    el("p", { class: "hint" }, `Binary, ${fmtBytes(entry.size)}; the first ${Math.min(HEX_BYTES, got.bytes.length)} bytes:`),
    el("pre", { class: "lines" }, hexDump(got.bytes.subarray(0, HEX_BYTES))),
  );
}

function hexDump(bytes) {
  const rows = [];
  for (let i = 0; i < bytes.length; i += 16) {
    const row = [...bytes.subarray(i, i + 16)];
    const hex = row.map((b) => b.toString(16).padStart(2, "0")).join(" ");
    const ascii = row.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");
    rows.push(`${i.toString(16).padStart(8, "0")}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return rows.join("\n");
}

// ---- tool-call log --------------------------------------------------------------------------

async function loadLog() {
  state.log = (await getJson(`${API}/sessions/${state.session}/log?limit=200`)).calls;
  renderLog();
}

function renderLog() {
  const outcome = $("log-outcome").value;
  const text = $("log-text").value.toLowerCase();
  const shown = state.log.filter((c) => {
    if (outcome && c.outcome !== outcome) return false;
    const hay = [c.tool, c.detail ?? "", c.denied?.rule ?? "", c.denied?.reason ?? "", c.task ?? ""].join(" ").toLowerCase();
    return !text || hay.includes(text);
  });
  $("log-rows").replaceChildren(
    ...shown.map((c) =>
      el(
        "tr",
        { class: c.outcome },
        el("td", {}, new Date(c.started).toLocaleTimeString()),
        el("td", {}, c.tool),
        el("td", {}, c.durationMs),
        el("td", {}, c.outcome),
        el("td", {}, c.checkpoint ? el("button", { type: "button", class: "cp-link", onclick: () => showDiff(c.checkpoint) }, `#${c.checkpoint}`) : ""),
        el("td", { class: "wrap" }, c.denied ? `${c.denied.rule}: ${c.denied.reason}` : (c.detail ?? "")),
      ),
    ),
  );
}

$("log-outcome").addEventListener("change", renderLog);
window.addEventListener("resize", () => state.fit?.fit());
$("log-text").addEventListener("input", renderLog);

// ---- checkpoints: the timeline beside the log ------------------------------------------------

async function loadCheckpoints() {
  const r = await getJson(`${API}/sessions/${state.session}/checkpoints`);
  $("history").textContent = `history holds ${fmtBytes(r.history.bytes)} of ${fmtBytes(r.history.max_bytes)}; freed ${fmtBytes(r.history.freed_bytes)}`;
  $("checkpoint-rows").replaceChildren(
    ...r.checkpoints
      .slice()
      .reverse()
      .map((c) =>
        el(
          "tr",
          { "data-id": c.id },
          el("td", {}, c.id),
          el("td", {}, new Date(c.created_at).toLocaleTimeString()),
          el("td", {}, c.kind),
          el("td", { class: "wrap" }, c.label ?? ""),
          el("td", {}, c.files),
          el("td", {}, fmtBytes(c.bytes)),
          el(
            "td",
            {},
            el("button", { type: "button", class: "cp-diff", onclick: () => showDiff(c.id) }, "diff"),
            el(
              "button",
              { type: "button", class: "cp-restore", onclick: () => act(`checkpoints/${c.id}/restore`, `Restore the workspace to checkpoint ${c.id}?`) },
              "restore",
            ),
            el("button", { type: "button", class: "cp-fork", onclick: () => act("fork", `Fork a new session from checkpoint ${c.id}?`, { checkpoint: c.id }) }, "fork"),
          ),
        ),
      ),
  );
}

/** The diff from a checkpoint to now, in the preview pane (as text, like every file shown). */
async function showDiff(id) {
  const d = await getJson(`${API}/sessions/${state.session}/diff?from=${id}&to=now`).catch((e) => ({ error: e.message }));
  $("preview-title").textContent = `Changes since checkpoint ${id}`;
  if (d.error) return $("preview-body").replaceChildren(el("p", { class: "error" }, d.error));
  const summary = `${d.added.length} added · ${d.removed.length} removed · ${d.changed.length} changed · ${d.mode_changed.length} mode changed${d.binary.length ? ` · binary: ${d.binary.join(", ")}` : ""}${d.truncated ? " · (cut)" : ""}`;
  const pre = el("pre", { class: "lines diff" });
  for (const line of d.diff.split("\n")) {
    const kind =
      line.startsWith("+++") || line.startsWith("---") || line.startsWith("diff ")
        ? "head"
        : line.startsWith("+")
          ? "add"
          : line.startsWith("-")
            ? "del"
            : line.startsWith("@@")
              ? "hunk"
              : "";
    pre.append(el("span", kind ? { class: kind } : {}, line), "\n");
  }
  $("preview-body").replaceChildren(el("p", { class: "hint" }, summary), d.diff ? pre : el("p", { class: "hint" }, "No difference."));
}

/** Restore and fork: the two changes the page may make (the cookie allows these two only). */
async function act(path, question, body = {}) {
  if (!confirm(question)) return;
  const r = await fetch(`${API}/sessions/${state.session}/${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await r.json();
  if (!r.ok) return ($("timeline-message").textContent = answer.message);
  if (answer.forked_from) {
    $("timeline-message").textContent = `Forked: new session ${answer.id}.`;
    await loadSessions();
    return;
  }
  $("timeline-message").textContent = answer.undo
    ? `Restored ${answer.changed} paths; undo with checkpoint ${answer.undo.id}.`
    : "Nothing differed: nothing was written.";
  await Promise.all([loadTree(), loadCheckpoints()]).catch(handle);
}

// ---- terminal -------------------------------------------------------------------------------

const PROMPT = "\x1b[1;32m$\x1b[0m ";
const COLORS = { stdin: "\x1b[2m", stderr: "\x1b[31m", stdout: "" };

/**
 * xterm.js draws; the line being typed is edited here and sent whole on Enter. The server
 * echoes each command (to every open terminal of the session), then its output as it comes.
 */
function openTerminal() {
  const term = new window.Terminal({ convertEol: true, fontSize: 13, scrollback: 2000 });
  const fit = new window.FitAddon.FitAddon();
  term.loadAddon(fit);
  state.term = term;
  state.line = "";
  let prompt = false; // the prompt line is on screen
  let lineStart = true; // the cursor is at the start of a line
  $("terminal").replaceChildren();
  term.open($("terminal"));
  fit.fit();
  state.fit = fit;
  const write = (text) => {
    if (!text) return;
    if (prompt) term.write("\r\x1b[2K");
    prompt = false;
    term.write(text);
    lineStart = text.endsWith("\n");
  };
  const showPrompt = () => {
    if (!lineStart && !prompt) term.write("\n");
    term.write(`\r\x1b[2K${PROMPT}${state.line}`);
    prompt = true;
    lineStart = true;
  };
  const url = new URL(`${API}/sessions/${state.session}/terminal`, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(url);
  state.socket = socket;
  const setState = (text) => ($("terminal-state").textContent = text);
  setState("connecting");
  socket.addEventListener("open", () => setState("connected"));
  socket.addEventListener("close", () => socket === state.socket && setState("disconnected; reopen the session to reconnect"));
  socket.addEventListener("message", (e) => {
    const m = JSON.parse(e.data);
    if (m.type === "replay") {
      write(m.data);
      showPrompt();
    } else if (m.type === "output") {
      const color = COLORS[m.stream] ?? "";
      write(color ? `${color}${m.data}\x1b[0m` : m.data);
      lineStart = m.data.endsWith("\n");
    } else if (m.type === "exit") {
      if (m.exit_code) write(`${lineStart ? "" : "\n"}\x1b[33m[exit ${m.exit_code}]\x1b[0m\n`);
      showPrompt();
    } else if (m.type === "error") {
      write(`\x1b[31m${m.message}\x1b[0m\n`);
      showPrompt();
    }
  });
  term.onData((data) => {
    for (const ch of data) {
      if (ch === "\r") {
        if (state.line.trim()) socket.send(JSON.stringify({ type: "run", command: state.line }));
        state.line = "";
        if (prompt) term.write("\r\x1b[2K");
        prompt = false;
      } else if (ch === "\x7f") {
        state.line = state.line.slice(0, -1);
        if (prompt) showPrompt();
      } else if (ch >= " ") {
        state.line += ch;
        if (prompt) term.write(ch);
      }
    }
  });
  showPrompt();
}

// ---- start ----------------------------------------------------------------------------------

getJson(`${API}/sessions`).then(
  () => {
    $("who").textContent = "logged in";
    start();
  },
  () => showLogin(),
);
