import { describe, expect, inject, it } from "vitest";
import { api, newSession, tool } from "../helpers";

const { site } = inject("netPorts");
const SITE = `http://127.0.0.1:${site}`;
const bash = (id: string, command: string) => tool(id, "bash", { command });

describe("curl and wget in the bash tool", () => {
  it("are found like programs", async () => {
    const id = await newSession();
    const r = await bash(id, "type curl; command -v wget; which curl 2>/dev/null || true");
    expect(r.stdout).toMatch(/^curl is \/[a-z/]+\/curl\n\/[a-z/]+\/wget\n/);
  });

  it("a dead kept-alive connection is retried once on a fresh one: 20 of 20 succeed", async () => {
    const id = await newSession();
    // /closes ends every response by closing (HTTP/1.0); /reused drops the second request on a socket.
    const r = await bash(
      id,
      `ok=0; for i in $(seq 10); do curl -sS ${SITE}/closes >/dev/null && curl -sS ${SITE}/reused >/dev/null && ok=$((ok+2)); done; echo $ok; wget -qO- ${SITE}/reused`,
    );
    expect(r).toMatchObject({ exit_code: 0, stdout: "20\nok\n", stderr: "" });
  });

  it("pipe a body: curl -sL URL | grep WORD", async () => {
    const id = await newSession();
    const r = await bash(id, `curl -sL "${SITE}/redirect?to=/article.html" | grep -o PERIWINKLE`);
    expect(r).toMatchObject({ exit_code: 0, stdout: "PERIWINKLE\n" });
  });

  it("save a body: curl -o page.html URL, and -O", async () => {
    const id = await newSession();
    const r = await bash(id, `curl -s -o page.html ${SITE}/article.html && grep -c '<script>' page.html && curl -sO ${SITE}/data.json && cat data.json`);
    expect(r.exit_code).toBe(0);
    expect(r.stdout).toBe('1\n{"name":"kelp","tags":["a","b"],"depth":{"m":30}}');
  });

  it("sends methods, headers, data, forms and credentials", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "body.txt", content: "line1\nline2\n" });
    const cases: [string, (echo: any) => void][] = [
      [
        `-X PUT -H 'X-Kelp: yes' -d a=1 -d b=2`,
        (e) => expect(e).toMatchObject({ method: "PUT", body: "a=1&b=2", headers: { "x-kelp": "yes", "content-type": "application/x-www-form-urlencoded" } }),
      ],
      [`-d @body.txt`, (e) => expect(e).toMatchObject({ method: "POST", body: "line1line2" })],
      [`--data-binary @body.txt`, (e) => expect(e.body).toBe("line1\nline2\n")],
      [`--data-raw @body.txt`, (e) => expect(e.body).toBe("@body.txt")],
      [`--data-urlencode 'q=kelp & tide'`, (e) => expect(e.body).toBe("q=kelp%20%26%20tide")],
      [
        `-u ann:secret -A agent/1 -e http://ref.example/`,
        (e) => expect(e.headers).toMatchObject({ authorization: `Basic ${btoa("ann:secret")}`, "user-agent": "agent/1", referer: "http://ref.example/" }),
      ],
      [
        `-F name=kelp -F file=@body.txt`,
        (e) => {
          expect(e.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
          expect(e.body).toContain('name="file"; filename="body.txt"');
          expect(e.body).toContain("line1\nline2");
        },
      ],
    ];
    for (const [opts, check] of cases) {
      const r = await bash(id, `curl -s ${opts} ${SITE}/echo`);
      expect(r.exit_code, `${opts}: ${r.stderr}`).toBe(0);
      check(JSON.parse(r.stdout));
    }
  });

  it("prints headers with -i and -I, and -w variables", async () => {
    const id = await newSession();
    const i = await bash(id, `curl -si ${SITE}/data.json`);
    expect(i.stdout).toMatch(/^HTTP\/1.1 200 OK\r\n/);
    expect(i.stdout).toContain("content-type: application/json\r\n");
    expect(i.stdout).toMatch(/\r\n\r\n\{"name":"kelp"/);
    const head = await bash(id, `curl -sI ${SITE}/data.json`);
    expect(head.stdout).not.toContain("{");
    const w = await bash(id, `curl -sL -o /dev/null -w '%{http_code} %{num_redirects} %{url_effective}\\n' ${SITE}/chain/2`);
    expect(w.stdout).toBe(`200 3 ${SITE}/hello.txt\n`);
  });

  it("exits with curl's own codes and messages", async () => {
    const id = await newSession();
    const cases: [string, number, string][] = [
      [`curl -sS -f ${SITE}/status?code=404`, 22, "curl: (22) The requested URL returned error: 404"],
      [`curl -s -f ${SITE}/status?code=500`, 22, ""],
      [`curl -sS --fail-with-body ${SITE}/status?code=503`, 22, "curl: (22) The requested URL returned error: 503"],
      [`curl -sS http://nowhere.toolshed.test/`, 6, "curl: (6) Could not resolve host: nowhere.toolshed.test"],
      [`curl -sS -m 0.3 ${SITE}/slow?ms=5000`, 28, "curl: (28) Operation timed out after 300 milliseconds"],
      [`curl -sSL ${SITE}/loop`, 47, "curl: (47) Maximum (5) redirects followed"],
      [`curl -sSL --max-redirs 1 ${SITE}/chain/3`, 47, "curl: (47) Maximum (1) redirects followed"],
      [`curl -sS ftp://127.0.0.1/x`, 126, "curl: toolshed: denied (url.scheme): The scheme 'ftp' is not allowed."],
      [`curl -sS 'http://[::1'`, 3, "curl: (3) URL rejected: 'http://[::1' is not a valid absolute URL."],
      [`curl --frobnicate ${SITE}/`, 2, "curl: option --frobnicate: is unknown"],
      [`curl -s`, 2, ""],
      [`curl -sS -d @missing.txt ${SITE}/echo`, 26, "curl: (26) Failed to open/read local data: missing.txt: No such file or directory"],
    ];
    for (const [cmd, code, err] of cases) {
      const r = await bash(id, cmd);
      expect(r.exit_code, cmd).toBe(code);
      if (err) expect(r.stderr, cmd).toContain(err);
      else expect(r.stderr, cmd).toBe("");
    }
  });

  it("a refused URL exits 126 with the reason and carries denied, logged", async () => {
    const id = await newSession();
    const r = await bash(id, `curl -s http://169.254.169.254/latest/meta-data/; echo "exit=$?"`);
    expect(r.stdout).toBe("exit=126\n");
    expect(r.stderr).toContain("curl: toolshed: denied (url.metadata): 169.254.169.254 is a cloud metadata address");
    expect(r.denied).toMatchObject({ rule: "url.metadata" });
    const redirected = await bash(id, `curl -sL "${SITE}/redirect?to=http://169.254.169.254/latest/meta-data/"`);
    expect(redirected.exit_code).toBe(126);
    expect(redirected.denied?.rule).toBe("url.metadata");
    const log = await api("GET", `/v1/sessions/${id}/log`);
    expect(log.body.calls[0]).toMatchObject({ tool: "bash", outcome: "denied", denied: { rule: "url.metadata" } });
  });

  it("wget saves, names, prints and refuses", async () => {
    const id = await newSession();
    const r = await bash(
      id,
      `wget -q ${SITE}/data.json && wget -q ${SITE}/data.json && wget -q -P dl ${SITE}/article.html && ls data.json* dl && wget -qO- ${SITE}/hello.txt`,
    );
    expect(r.exit_code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`data.json\ndata.json.1\n\ndl:\narticle.html\nhello from /hello.txt\n`);
    const s = await bash(id, `wget -S -O out.txt --header 'X-A: b' ${SITE}/echo && grep -o '"x-a":"b"' out.txt`);
    expect(s.stderr).toContain("  HTTP/1.1 200 OK");
    expect(s.stdout).toBe('"x-a":"b"\n');
    const bad = await bash(id, `wget -q ${SITE}/status?code=404; echo $?; wget -q http://[::1]:${site}/; echo $?`);
    expect(bad.stdout).toBe("8\n126\n");
    expect(bad.denied?.rule).toBe("url.private_address");
  });
});
