import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { KEPT_PIECES, PIECE_CHARS } from "../../src/session/terminal";
import { ALICE, api, BOB, newSession, tool } from "../helpers";

interface Message {
  type: string;
  [k: string]: any;
  /** ms since the terminal connected. */
  at: number;
}

/** Opens the session's terminal as a browser would (through the Worker), collecting every message. */
async function connect(id: string, key = ALICE) {
  const res = await exports.default.fetch(`http://toolshed.test/v1/sessions/${id}/terminal`, {
    headers: { upgrade: "websocket", authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  const t0 = Date.now();
  const messages: Message[] = [];
  const waiters: (() => void)[] = [];
  ws.accept();
  ws.addEventListener("message", (e) => {
    messages.push({ ...JSON.parse(e.data as string), at: Date.now() - t0 });
    waiters.splice(0).forEach((w) => w());
  });
  const until = async (pred: (m: Message[]) => boolean, ms = 15_000) => {
    const deadline = Date.now() + ms;
    while (!pred(messages)) {
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(messages).slice(0, 2000)}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 200);
      });
    }
  };
  const run = async (command: string) => {
    const before = messages.filter((m) => m.type === "exit").length;
    ws.send(JSON.stringify({ type: "run", command }));
    await until((m) => m.filter((x) => x.type === "exit").length > before);
    return messages.at(-1)!;
  };
  await until((m) => m.some((x) => x.type === "replay"));
  return { ws, messages, until, run };
}

const printed = (messages: Message[]) =>
  messages
    .filter((m) => m.type === "output")
    .map((m) => m.data)
    .join("");

describe("live terminal (WebSocket on the session object)", () => {
  it("streams a command's output as it is produced and ends with its exit code", async () => {
    const id = await newSession();
    const t = await connect(id);
    expect(t.messages[0]).toMatchObject({ type: "replay", data: "" });
    const exit = await t.run("for i in 1 2 3; do echo $i; sleep 0.4; done; exit 3");
    expect(exit).toMatchObject({ type: "exit", exit_code: 3, success: false });
    const chunks = t.messages.filter((m) => m.type === "output" && m.stream === "stdout");
    expect(chunks.map((m) => m.data)).toEqual(["1\n", "2\n", "3\n"]);
    // Each number arrived while the command was still running, about 0.4 s apart.
    expect(chunks[1]!.at - chunks[0]!.at).toBeGreaterThan(250);
    expect(chunks[2]!.at - chunks[1]!.at).toBeGreaterThan(250);
    expect(t.messages.find((m) => m.stream === "stdin")?.data).toBe("$ for i in 1 2 3; do echo $i; sleep 0.4; done; exit 3\n");
    t.ws.close();
  });

  it("runs under the session's policy and lands in its tool-call log", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: ".env", content: "SECRET=hunter2\n" });
    const t = await connect(id);
    const exit = await t.run("cat .env");
    expect(exit.success).toBe(false);
    expect(printed(t.messages)).not.toContain("hunter2");
    expect(printed(t.messages).match(/toolshed: denied \(dotenv\)/g)).toHaveLength(1);
    await t.run("echo hi > note.txt");
    expect((await tool(id, "read_file", { path: "note.txt" })).output).toContain("hi");
    const log = (await api("GET", `/v1/sessions/${id}/log`)).body.calls;
    expect(log.map((c: any) => [c.tool, c.outcome])).toEqual([
      ["read_file", "ok"],
      ["bash", "ok"],
      ["bash", "denied"],
      ["write_file", "ok"],
    ]);
    expect(log[2].denied.rule).toBe("dotenv");
    t.ws.close();
  });

  it("replays the recent output to a terminal that connects later, and sends live output to every open one", async () => {
    const id = await newSession();
    const a = await connect(id);
    await a.run("echo first");
    const b = await connect(id);
    expect(b.messages[0]).toMatchObject({ type: "replay", data: "$ echo first\nfirst\n" });
    await a.run("echo second");
    await b.until((m) => m.some((x) => x.type === "exit"));
    expect(printed(b.messages)).toBe("$ echo second\nsecond\n");
    a.ws.close();
    b.ws.close();
  });

  it("keeps only the newest output for replay", async () => {
    const id = await newSession();
    const a = await connect(id);
    // Each line of 5,000 'x' is two stored pieces (4,096 + the rest); 200 lines outgrow the record.
    await a.run(`for i in $(seq 200); do printf "%05d%s\\n" $i "$(printf 'x%.0s' $(seq 4994))"; done`);
    a.ws.close();
    const b = await connect(id);
    const replay = b.messages[0]!.data as string;
    expect(replay.length).toBeLessThanOrEqual(KEPT_PIECES * PIECE_CHARS);
    expect(replay.length).toBeGreaterThan((KEPT_PIECES - 3) * 2500);
    expect(replay.endsWith("x\n")).toBe(true);
    expect(replay).toContain("00200x");
    expect(replay).not.toContain("00001x");
    b.ws.close();
  });

  it("answers a malformed message with an error that says what to send", async () => {
    const id = await newSession();
    const t = await connect(id);
    t.ws.send("ls");
    t.ws.send(JSON.stringify({ type: "run" }));
    await t.until((m) => m.filter((x) => x.type === "error").length === 2);
    const errors = t.messages.filter((m) => m.type === "error").map((m) => m.message);
    expect(errors[0]).toMatch(/not JSON.*"type": "run"/);
    expect(errors[1]).toMatch(/command/);
    t.ws.close();
  });

  it("is the owner's only: another tenant gets 404, no key 401, a plain GET 426", async () => {
    const id = await newSession();
    const other = await exports.default.fetch(`http://toolshed.test/v1/sessions/${id}/terminal`, { headers: { upgrade: "websocket", authorization: `Bearer ${BOB}` } });
    expect(other.status).toBe(404);
    const none = await exports.default.fetch(`http://toolshed.test/v1/sessions/${id}/terminal`, { headers: { upgrade: "websocket" } });
    expect(none.status).toBe(401);
    const plain = await api("GET", `/v1/sessions/${id}/terminal`);
    expect(plain.status).toBe(426);
    expect(plain.body.message).toMatch(/WebSocket/);
  });

  it("has no terminal in a session that serves no shell tool", async () => {
    const id = await newSession(ALICE, { tools: ["read_file"] });
    const r = await api("GET", `/v1/sessions/${id}/terminal`, { headers: { upgrade: "websocket" } });
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/no shell tool/);
  });
});
