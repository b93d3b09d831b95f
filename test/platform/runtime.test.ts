import { env, exports } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { connect } from "cloudflare:sockets";
import { describe, expect, inject, it } from "vitest";
import { sessionStub } from "../../src/service";
import { ALICE, newSession } from "../helpers";
import jspiModule from "../wasi/fixtures/jspi.wasm";

/**
 * The runtime facts the project builds on, checked on the workerd this checkout installs, with the
 * compatibility date and flags of wrangler.toml (docs/platform.md lists them with these tests).
 */

/** The smallest valid Wasm module: the magic number and version 1. */
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
/** The compile-from-bytes entry points, which workers-types leaves out because Workers refuse them. */
const W = WebAssembly as unknown as {
  Module: new (bytes: BufferSource) => WebAssembly.Module;
  compile(bytes: BufferSource): Promise<WebAssembly.Module>;
  instantiate(bytes: BufferSource): Promise<unknown>;
};

describe("Wasm compile rules", () => {
  it("refuses to compile Wasm from bytes at request time, every way of asking", async () => {
    expect(() => new W.Module(EMPTY_MODULE)).toThrow(/code generation disallowed/i);
    await expect(W.compile(EMPTY_MODULE)).rejects.toThrow(/code generation disallowed/i);
    await expect(W.instantiate(EMPTY_MODULE)).rejects.toThrow(/code generation disallowed/i);
  });

  it("instantiates a module imported at build time", () => {
    expect(jspiModule).toBeInstanceOf(WebAssembly.Module);
    const wait = new (WebAssembly as unknown as { Suspending: new (fn: () => Promise<number>) => WebAssembly.ImportValue }).Suspending(async () => 1);
    expect(new WebAssembly.Instance(jspiModule, { env: { wait } })).toBeInstanceOf(WebAssembly.Instance);
  });
});

describe("cloudflare:sockets", () => {
  it("reaches a TCP server on 127.0.0.1 (Dovecot's IMAP greeting)", async () => {
    const { port } = inject("imapServer");
    const socket = connect({ hostname: "127.0.0.1", port });
    const reader = socket.readable.getReader();
    let greeting = "";
    const decoder = new TextDecoder();
    while (!greeting.includes("\r\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      greeting += decoder.decode(value, { stream: true });
    }
    expect(greeting).toMatch(/^\* OK/);
    reader.releaseLock();
    await socket.close();
  });
});

describe("hibernatable WebSockets (the session terminal)", () => {
  async function open(id: string) {
    const res = await exports.default.fetch(`http://toolshed.test/v1/sessions/${id}/terminal`, {
      headers: { upgrade: "websocket", authorization: `Bearer ${ALICE}` },
    });
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const messages: { type: string; [k: string]: unknown }[] = [];
    ws.accept();
    ws.addEventListener("message", (e) => messages.push(JSON.parse(e.data as string)));
    const until = async (pred: () => boolean) => {
      const deadline = Date.now() + 15_000;
      while (!pred()) {
        if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(messages).slice(0, 1000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until(() => messages.some((m) => m.type === "replay"));
    return { ws, messages, until };
  }

  it("keeps the socket across eviction of the object, which wakes for the next message", async () => {
    const id = await newSession();
    const t = await open(id);
    await evictDurableObject(sessionStub(env, "alice", id));
    t.ws.send(JSON.stringify({ type: "run", command: "echo after-eviction" }));
    await t.until(() => t.messages.some((m) => m.type === "exit"));
    expect(t.messages.filter((m) => m.type === "output" && m.stream === "stdout").map((m) => m.data)).toEqual(["after-eviction\n"]);
    // The woken object finds the socket again through the hibernation API.
    const open_ = await runInDurableObject(sessionStub(env, "alice", id), (_o, state) => state.getWebSockets().length);
    expect(open_).toBe(1);
    t.ws.close(1000);
  });

  it("answers a client's close with a close frame of the same code (webSocketClose closes it; the runtime's auto-reply does not cover hibernated sockets)", async () => {
    const id = await newSession();
    const t = await open(id);
    const closed = new Promise<{ code: number; readyState: number }>((resolve) =>
      t.ws.addEventListener("close", (e) => resolve({ code: e.code, readyState: t.ws.readyState })),
    );
    t.ws.close(4001, "bye");
    const got = await Promise.race([closed, new Promise<null>((r) => setTimeout(() => r(null), 10_000))]);
    expect(got).toEqual({ code: 4001, readyState: WebSocket.CLOSED });
  });
});
