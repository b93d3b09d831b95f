import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ToolshedRPC } from "../../src/rpc";
import { ALICE, api, BOB, newSession, tool } from "../helpers";

interface Received {
  event: string;
  data: any;
  /** ms since the request was sent, when the event's bytes arrived. */
  at: number;
}

/** Reads Server-Sent Events off a body, stamping each with when it arrived. */
async function readEvents(body: ReadableStream<Uint8Array>, t0: number): Promise<Received[]> {
  const events: Received[] = [];
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffered = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffered.indexOf("\n\n")) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = /^data: (.*)$/m.exec(block)?.[1];
      events.push({ event, data: data === undefined ? undefined : JSON.parse(data), at: Date.now() - t0 });
    }
  }
  expect(buffered).toBe("");
  return events;
}

function streamCall(id: string, name: string, args: unknown, key = ALICE): Promise<Response> {
  return exports.default.fetch(`http://toolshed.test/v1/sessions/${id}/tools/${name}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, accept: "text/event-stream", "content-type": "application/json" },
    body: JSON.stringify(args),
  });
}

/** The result with the fields that differ between two runs of the same command taken out. */
const shape = (r: any) => ({ ...r, duration_ms: typeof r.duration_ms, summary: String(r.summary).replace(/\d+ ms/, "N ms") });

const LOOP = "for i in 1 2 3; do echo $i; sleep 1; done";

describe("streamed tool calls (Accept: text/event-stream)", () => {
  it("streams bash output as the interpreter produces it, then the plain call's result", async () => {
    const id = await newSession();
    const t0 = Date.now();
    const res = await streamCall(id, "bash", { command: LOOP });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await readEvents(res.body!, t0);
    expect(events.map((e) => e.event)).toEqual(["start", "stdout", "stdout", "stdout", "result"]);
    expect(events[0]!.data.tool).toBe("bash");
    const out = events.filter((e) => e.event === "stdout");
    expect(out.map((e) => e.data.data)).toEqual(["1\n", "2\n", "3\n"]);
    // Each line arrives while the loop is still sleeping, about a second after the one before.
    expect(out[1]!.at - out[0]!.at).toBeGreaterThan(500);
    expect(out[2]!.at - out[1]!.at).toBeGreaterThan(500);
    expect(events[4]!.at - out[2]!.at).toBeGreaterThan(500);
    const streamed = events[4]!.data;
    expect(streamed).toMatchObject({ success: true, exit_code: 0, stdout: "1\n2\n3\n", stderr: "" });
    const plain = await tool(id, "bash", { command: LOOP });
    expect(shape(streamed)).toEqual(shape(plain));
    // Logged exactly like a plain call: two bash calls, both ok.
    const log = await api("GET", `/v1/sessions/${id}/log`);
    const bash = (log.body.calls as { tool: string; outcome: string }[]).filter((c) => c.tool === "bash");
    expect(bash.map((c) => c.outcome)).toEqual(["ok", "ok"]);
  });

  it("streams stderr apart from stdout, and a denial arrives in the result", async () => {
    const id = await newSession();
    const events = await readEvents((await streamCall(id, "bash", { command: "echo out; echo err >&2; exit 3" })).body!, Date.now());
    expect(
      events
        .filter((e) => e.event === "stdout")
        .map((e) => e.data.data)
        .join(""),
    ).toBe("out\n");
    expect(
      events
        .filter((e) => e.event === "stderr")
        .map((e) => e.data.data)
        .join(""),
    ).toBe("err\n");
    expect(events.at(-1)).toMatchObject({ event: "result", data: { success: false, exit_code: 3 } });
    const denied = await readEvents((await streamCall(id, "bash", { command: "cat .env" })).body!, Date.now());
    expect(denied.at(-1)!.event).toBe("result");
    expect(denied.at(-1)!.data.denied?.rule).toBeTruthy();
  });

  it("a tool that is not the shell streams start and result", async () => {
    const id = await newSession();
    const events = await readEvents((await streamCall(id, "write_file", { path: "a.txt", content: "hi" })).body!, Date.now());
    expect(events.map((e) => e.event)).toEqual(["start", "result"]);
    expect(events[1]!.data.success).toBe(true);
    expect((await tool(id, "read_file", { path: "a.txt" })).output).toBe("     1\thi");
  });

  it("a status change shows as a status event", async () => {
    const id = await newSession();
    const events = await readEvents((await streamCall(id, "set_status", { status: "building" })).body!, Date.now());
    expect(events.map((e) => e.event)).toEqual(["start", "status", "result"]);
    expect(events[1]!.data.status).toBe("building");
  });

  it.each([
    ["an unknown tool", (id: string) => streamCall(id, "no_such_tool", {}), 404, "tool_not_found"],
    ["invalid arguments", (id: string) => streamCall(id, "bash", { command: 7 }), 400, "invalid_arguments"],
    ["another tenant's session", (id: string) => streamCall(id, "bash", { command: "echo hi" }, BOB), 404, "session_not_found"],
  ])("%s gives a 4xx JSON error, not a stream", async (_what, call, status, error) => {
    const id = await newSession();
    const res = await call(id);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await res.json()) as { error: string }).error).toBe(error);
  });

  it("a client that disconnects does not stop the call: it runs to its end and is logged", async () => {
    const id = await newSession();
    const res = await streamCall(id, "bash", { command: "echo started; sleep 1; echo finished > after.txt" });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("event: start");
    await reader.cancel();
    let file: any;
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 100));
      file = await api("POST", `/v1/sessions/${id}/tools/read_file`, { body: { path: "after.txt" } });
      if (file.body.success) break;
    }
    expect(file.body.output).toBe("     1\tfinished");
    const log = await api("GET", `/v1/sessions/${id}/log`);
    expect((log.body.calls as { tool: string; outcome: string }[]).some((c) => c.tool === "bash" && c.outcome === "ok")).toBe(true);
  });

  it("over RPC: callToolStream returns the same events as a ReadableStream", async () => {
    const rpc = exports.ToolshedRPC as unknown as Pick<ToolshedRPC, "createSession" | "callToolStream">;
    const session = await rpc.createSession("alice");
    const t0 = Date.now();
    const events = await readEvents(await rpc.callToolStream("alice", session.id, "bash", { command: "echo a; sleep 1; echo b" }), t0);
    expect(events.map((e) => e.event)).toEqual(["start", "stdout", "stdout", "result"]);
    expect(events[2]!.at - events[1]!.at).toBeGreaterThan(500);
    expect(events[3]!.data.stdout).toBe("a\nb\n");
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: Error) => e.message,
      );
    expect(await failure(rpc.callToolStream("alice", session.id, "nope", {}))).toMatch(/no tool 'nope'/);
    expect(await failure(rpc.callToolStream("bob", session.id, "bash", { command: "true" }))).toMatch(/No such session/);
  });
});
