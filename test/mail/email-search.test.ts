import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { netContextFromEnv } from "../../src/net/context";
import { judgeUrlSyntax } from "../../src/policy/urls";
import { errorResult } from "../../src/tools/result";
import { emailSearch } from "../../src/tools/mail/email-search";
import type { ToolContext, ToolResult } from "../../src/tools/types";
import { api, newSession, tool } from "../helpers";

// Against the real Dovecot of test/mail/dovecot.global.mjs, seeded by test/mail/mailbox.mjs.
// vitest.config.ts points the Worker's TOOLSHED_IMAP_* at it (plain IMAP, 127.0.0.1 exempted).

/** Runs the tool directly with the Worker's variables changed by `over`. */
async function searchWith(over: Partial<Env>, args: Record<string, unknown>): Promise<ToolResult> {
  const workerEnv = { ...env, ...over } as Env;
  const ctx = { sessionId: "s", cwd: "/workspace", env: {}, setStatus: () => {}, workerEnv, net: netContextFromEnv(workerEnv) } as unknown as ToolContext;
  // Policy refusals are thrown and turned into results by the tool runner, as here.
  try {
    return await emailSearch.run(ctx, emailSearch.params.parse(args));
  } catch (e) {
    return errorResult(e);
  }
}

describe("email_search against Dovecot", () => {
  it("finds messages by FROM and SINCE and decodes a multipart quoted-printable body", async () => {
    const id = await newSession();
    const r = await tool(id, "email_search", { query: "FROM alice@example.com SINCE 1-Jan-2024" });
    expect(r.success).toBe(true);
    // The 2023 message from alice is before SINCE; bob's and françois's are from others.
    expect(r.messages.map((m: { subject: string }) => m.subject)).toEqual(["Huge newsletter", "Quarterly résumé"]);
    const qp = r.messages[1];
    expect(qp.from).toBe("Alice Example <alice@example.com>");
    expect(qp.date).toBe("2024-01-15T10:30:00.000Z");
    expect(qp.body).toBe("Café budget: 3 € per cup, a line that is long enough to be soft-wrapped by the encoder.");
    expect(r.output).toContain("2 messages in INBOX match FROM alice@example.com SINCE 1-Jan-2024:");
    expect(r.output).not.toContain(inject("imapServer").password);
  });

  const decoding: [query: string, subject: string, from: string, body: string][] = [
    ['SUBJECT "Base64"', "Base64 report", "Bob Builder <bob@example.org>", "Grüße aus Berlin. The build is green."],
    ["FROM francois@example.fr", "Latin-1 note", "François <francois@example.fr>", "Très bien, à bientôt."],
    ["BEFORE 1-Jan-2024", "Plain hello", "Alice Example <alice@example.com>", "Hello from an old plain message."],
  ];
  it.each(decoding)("decodes %s", async (query, subject, from, body) => {
    const r = await searchWith({}, { query });
    expect(r.success).toBe(true);
    expect(r.messages).toEqual([{ subject, from, date: expect.any(String), body }]);
  });

  it("returns the newest first, honours max_results and searches another folder", async () => {
    const all = await searchWith({}, { query: "ALL", max_results: 3 });
    expect(all.total_matches).toBe(5);
    expect((all.messages as { subject: string }[]).map((m) => m.subject)).toEqual(["Huge newsletter", "Latin-1 note", "Base64 report"]);
    expect(all.output).toContain("5 messages in INBOX match ALL; showing the newest 3:");
    const archive = await searchWith({}, { query: "ALL", folder: "Archive" });
    expect((archive.messages as { body: string }[]).map((m) => m.body)).toEqual(["Invoice 42 is paid."]);
  });

  it("caps a long body and says so", async () => {
    const r = await searchWith({}, { query: 'SUBJECT "newsletter"' });
    const body = (r.messages as { body: string }[])[0]!.body;
    expect(body.length).toBeLessThan(4100);
    expect(body).toMatch(/\[\.\.\. body truncated\]$/);
  });

  it("answers an empty search plainly", async () => {
    const r = await searchWith({}, { query: "FROM nobody@example.com" });
    expect(r).toMatchObject({ success: true, messages: [], output: "No messages in INBOX match FROM nobody@example.com." });
  });

  const badQueries: [query: string, why: RegExp][] = [
    ["ALL\r\nT9 DELETE INBOX", /line break/],
    ['SUBJECT "open', /double quote is not closed/],
    ["OR (FROM a FROM b", /'\(' is not closed/],
    ["FROM a)", /'\)' has no matching/],
    ["SUBJECT {5}", /literal/],
    ["SUBJECT café", /non-ASCII/],
    ["FRUM alice", /rejected the search query/],
  ];
  it.each(badQueries)("refuses the query %j clearly", async (query, why) => {
    const r = await searchWith({}, { query });
    expect(r.success).toBe(false);
    expect(r.error).toMatch(why);
    expect(r.error).toMatch(/IMAP SEARCH syntax/);
  });

  it("says which folder does not exist", async () => {
    const r = await searchWith({}, { query: "ALL", folder: "Nope" });
    expect(r).toMatchObject({ success: false, kind: "folder" });
    expect(r.error).toMatch(/The folder "Nope" cannot be opened/);
  });

  it("refuses a wrong password without showing any password", async () => {
    const r = await searchWith({ TOOLSHED_IMAP_PASSWORD: "wrong-password-xyz" }, { query: "ALL" });
    expect(r).toMatchObject({ success: false, kind: "auth" });
    expect(r.error).toMatch(/refused the operator's login.*user name or password is wrong/);
    expect(JSON.stringify(r)).not.toMatch(/wrong-password-xyz|s3cr/);
  });

  it("reports an unreachable server", async () => {
    const { port } = inject("imapServer");
    // A closed port next to Dovecot's, exempted like the real one.
    const closed = port === 65535 ? port - 1 : port + 1;
    const r = await searchWith({ TOOLSHED_IMAP_PORT: String(closed), TOOLSHED_ALLOWED_ORIGINS: `imap://127.0.0.1:${closed}` }, { query: "ALL" });
    expect(r).toMatchObject({ success: false, kind: "connect" });
    expect(r.error).toMatch(/IMAP server 127\.0\.0\.1:\d+/);
  });

  it("reports a TLS mismatch (implicit TLS against a plain server)", async () => {
    const r = await searchWith({ TOOLSHED_IMAP_TLS: "on" }, { query: "ALL" });
    // workerd reports a failed handshake like a failed connection, so the hint names TLS.
    expect(r).toMatchObject({ success: false, kind: "connect" });
    expect(r.error).toMatch(/TOOLSHED_IMAP_TLS=on expects implicit TLS/);
    expect(JSON.stringify(r)).not.toContain(inject("imapServer").password);
  });

  it("reports STARTTLS refused by a server without TLS", async () => {
    const r = await searchWith({ TOOLSHED_IMAP_TLS: "starttls" }, { query: "ALL" });
    expect(r).toMatchObject({ success: false, kind: "tls" });
    expect(r.error).toMatch(/refused STARTTLS/);
  });

  it("is refused by the URL policy when the local server is not exempted", async () => {
    const r = await searchWith({ TOOLSHED_ALLOWED_ORIGINS: "" }, { query: "ALL" });
    expect(r.success).toBe(false);
    expect(r.denied).toMatchObject({ rule: "url.private_address" });
  });

  it("refuses plain IMAP to a server the operator did not exempt", async () => {
    const r = await searchWith({ TOOLSHED_IMAP_HOST: "93.184.216.34", TOOLSHED_IMAP_PORT: "143" }, { query: "ALL" });
    expect(r).toMatchObject({ success: false, kind: "not_configured" });
    expect(r.error).toMatch(/TOOLSHED_IMAP_TLS=off for imap:\/\/93\.184\.216\.34:143, which is not in TOOLSHED_ALLOWED_ORIGINS/);
  });

  it("says not supported when no mailbox is configured", async () => {
    const r = await searchWith({ TOOLSHED_IMAP_HOST: "" }, { query: "ALL" });
    expect(r).toMatchObject({ success: false, kind: "not_configured" });
    expect(r.error).toMatch(/not supported here: the operator has not configured a mailbox/);
  });

  it("is served by the spacebot-worker profile under the page's name and shape", async () => {
    const id = await newSession(undefined, { profile: "spacebot-worker" });
    const r = await tool(id, "email_search", { query: "FROM bob@example.org SINCE 1-Jan-2024", folder: "INBOX", max_results: 5 });
    expect(r.success).toBe(true);
    expect(r.messages).toEqual([
      { subject: "Base64 report", from: "Bob Builder <bob@example.org>", date: "2024-01-20T08:00:00.000Z", body: "Grüße aus Berlin. The build is green." },
    ]);
  });

  it("leaves the web tools' URL judgement to http(s): imap: is judged only when the mail client asks", () => {
    const policy = netContextFromEnv(env).policy;
    const { port } = inject("imapServer");
    expect(() => judgeUrlSyntax(`imap://127.0.0.1:${port}`, policy)).toThrow(/scheme 'imap' is not allowed/);
    expect(judgeUrlSyntax(`imap://127.0.0.1:${port}`, policy, ["imap:"]).exempt).toBe(true);
    expect(() => judgeUrlSyntax(`imap://127.0.0.1:${port + 1}`, policy, ["imap:"])).toThrow(/loopback/);
  });

  it("validates its parameters at the edge", async () => {
    const id = await newSession();
    const res = await api("POST", `/v1/sessions/${id}/tools/email_search`, { body: { query: "ALL", max_results: 0 } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/max_results/);
  });
});
