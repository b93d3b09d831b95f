import type { OutputSink } from "../shell";
import type { ToolResult } from "../tools/result";
import { textSink } from "./call-stream";
import { parseClientMessage, TerminalRecord, type ServerMessage } from "./terminal";
import type { Outcome } from "./types";

/** What the live terminal needs of its session; the session object wires these. */
export interface TerminalHost {
  /** The served tool that runs `bash` for a bare `{command}` (each profile names it its own way), or null. */
  shellTool(): string | null;
  /** Runs `command` as one call of `tool`; a refusal before it ran (unknown tool, bad arguments) is a Failure. */
  run(tool: string, command: string, output: OutputSink): Promise<Outcome<{ result: ToolResult }>>;
  /** Takes a socket in as hibernatable: an idle terminal costs nothing. */
  accept(ws: WebSocket): void;
  /** Every terminal open on the session (they survive the object's hibernation). */
  sockets(): WebSocket[];
}

/** Why a request did not become a terminal; the object answers it in HTTP. */
export interface TerminalRefusal {
  status: 404 | 426;
  error: "upgrade_required" | "tool_not_found";
  message: string;
}

/** Sends to one terminal; one that closed meanwhile is skipped (the others still get it). */
function send(ws: WebSocket, message: ServerMessage): void {
  try {
    ws.send(JSON.stringify(message));
  } catch {
    // closed under us
  }
}

/**
 * The live terminal (`/v1/sessions/:id/terminal`): WebSockets on which each line typed runs as
 * a call of the session's shell tool (same policy, log and limits), its output going to every
 * open terminal as it is produced and into the replay record (src/session/terminal.ts).
 */
export class TerminalSockets {
  private kept: TerminalRecord | null = null;

  constructor(
    private readonly sql: SqlStorage,
    private readonly host: TerminalHost,
  ) {}

  /** Made when first used: a session never connected to has no terminal table. */
  private get record(): TerminalRecord {
    return (this.kept ??= new TerminalRecord(this.sql));
  }

  /** Accepts a WebSocket upgrade and replays the recent output to it. */
  open(request: Request): Response | TerminalRefusal {
    if ((request.headers.get("upgrade") ?? "").toLowerCase() !== "websocket") {
      return {
        status: 426,
        error: "upgrade_required",
        message: "The terminal is a WebSocket: connect with `Upgrade: websocket` (e.g. new WebSocket(url) from the inspector page).",
      };
    }
    if (!this.host.shellTool()) return { status: 404, error: "tool_not_found", message: "This session serves no shell tool, so it has no terminal." };
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.host.accept(server);
    send(server, { type: "replay", data: this.record.recent() });
    return new Response(null, { status: 101, webSocket: client });
  }

  /** One message from a terminal: a line to run, or an error sent back to it. */
  async message(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const tool = this.host.shellTool();
    if (!tool) return ws.close(1011, "The session is gone.");
    const parsed = parseClientMessage(message);
    if (!parsed.ok) return send(ws, { type: "error", message: parsed.message });
    const record = this.record;
    const broadcast = (stream: "stdin" | "stdout" | "stderr", data: string) => {
      record.append(data);
      for (const open of this.host.sockets()) send(open, { type: "output", stream, data });
    };
    const exit = (exitCode: number | null, success: boolean) => {
      for (const open of this.host.sockets()) send(open, { type: "exit", exit_code: exitCode, success });
    };
    broadcast("stdin", `$ ${parsed.value.command}\n`);
    let printed = false;
    const sink = textSink((stream, text) => ((printed = true), broadcast(stream, text)));
    const call = await this.host.run(tool, parsed.value.command, sink);
    if (!call.ok) return (broadcast("stderr", `${call.message}\n`), exit(null, false));
    const { result } = call;
    // A refusal before the shell ran (or any failure it did not print) still shows in the terminal.
    if (!printed && result.denied) broadcast("stderr", `toolshed: denied (${result.denied.rule}): ${result.denied.reason}\n`);
    else if (!printed && result.error) broadcast("stderr", `${result.error}\n`);
    exit(typeof result["exit_code"] === "number" ? result["exit_code"] : null, result.success);
  }
}

/** A terminal closed by its client: closed on this side too (1005, no code given, as a normal close). */
export function closeTerminal(ws: WebSocket, code: number): void {
  try {
    ws.close(code === 1005 ? 1000 : code, "closed");
  } catch {
    // already closed
  }
}
