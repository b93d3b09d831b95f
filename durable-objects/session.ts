import type { McpHttpHandler } from "@modelcontextprotocol/server";
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import { httpError } from "../src/http/respond";
import { deferredTools, type DeferredTools } from "../src/mcp/client/deferred";
import { parseDeferredName } from "../src/mcp/client/names";
import { createSessionMcpHandler, MCP_SERVER_VERSION } from "../src/mcp/server";
import { Laps, type Phases } from "../src/lib/server-timing";
import { PolicyDenied } from "../src/policy/denied";
import { FileRules } from "../src/policy/files";
import { netContextFromEnv, type NetContext } from "../src/net/context";
import { outboxTtlSecondsFromEnv, quotasFromEnv } from "../src/policy/limits";
import { downloadLink } from "../src/policy/signing";
import { sessionPolicy } from "../src/policy/rule-sets";
import { profileOf, sessionTools, type Profile } from "../src/profiles";
import { exportTools, withoutNulls, type Format } from "../src/profiles/export";
import { afterCall, beforeCall } from "../src/profiles/guards";
import { CallStream } from "../src/session/call-stream";
import { closeTerminal, TerminalSockets } from "../src/session/terminal-sockets";
import type { OutputSink } from "../src/shell";
import { SessionStore, type SessionMeta, type ToolCallRecord } from "../src/session/state";
import { BROWSER_IDLE_JOB, browserIdleMs, closeBrowser, type BrowserHost } from "../src/tools/browser/session";
import { BackgroundRuns, SUBAGENT_JOB } from "../src/agents/background";
import type { SubAgentHost } from "../src/agents/host";
import { chatModel, modelConfigFromEnv, type FunctionTool } from "../src/agents/model";
import { withPendingMessages } from "../src/agents/pending";
import { MAX_RUNNING_SUBAGENTS } from "../src/agents/run";
import { AlarmScheduler, type AlarmHandler } from "../src/session/alarms";
import { TaskStore, viewOf, type TaskView } from "../src/agents/tasks";
import { Uploads } from "../src/session/uploads";
import { errorResult } from "../src/tools/result";
import { TOOLS, formatValidationError } from "../src/tools/registry";
import type { Json, ToolContext, ToolDefinition, ToolResult } from "../src/tools/types";
import { isVfsError } from "../src/vfs/errors";
import { GuardedFs } from "../src/policy/guarded-fs";
import { checkConsistency } from "../src/vfs/consistency";
import { Outbox, type OutboxEntry, type SentFile } from "../src/vfs/outbox";
import { ROOT, relativeToRoot } from "../src/vfs/paths";
import { Workspace } from "../src/vfs/workspace";
import { takeTurn } from "../src/wasi/turns";
import * as checkpoints from "../src/session/checkpoints";
import { cleanupHalfFork, importFork } from "../src/session/fork";
import type { CreateOptions, DirEntry, Failure, Outcome, SessionInfo } from "../src/session/types";

export type { CreateOptions, DirEntry, Failure, Outcome, SessionInfo } from "../src/session/types";

type ServedTool = ReturnType<typeof sessionTools>[number];

/** A call whose tool was found and whose arguments were checked. */
interface PreparedCall {
  s: Opened;
  /** The session's settings, read once for the whole call. */
  meta: SessionMeta;
  profile: Profile;
  name: string;
  /** The implementation that runs: a canonical tool, or a remote MCP server's tool. */
  tool: ToolDefinition;
  args: unknown;
  /** The profile tool and its canonical call; null for a deferred (remote) tool. */
  entry: ServedTool | null;
  call: ReturnType<ServedTool["route"]> | null;
}

/** A deferred tool's arguments: any JSON object; its own server checks them against its schema. */
const remoteArgs = z.record(z.string(), z.unknown());

/** A remote MCP server's tool, run like a canonical one (same log, queue and result envelope). */
function remoteTool(name: string, server: string, remote: string): ToolDefinition {
  return {
    name,
    description: "",
    params: remoteArgs,
    // It changes nothing in the session's workspace, so it need not wait for writers.
    readOnly: true,
    run: (ctx, args) => {
      if (!ctx.deferred) throw new Error("deferred tools are not wired into this context");
      return ctx.deferred.call(server, remote, args as Record<string, unknown>);
    },
  };
}

/** What a streamed call watches while it runs. */
interface CallWatch {
  output?: OutputSink;
  onStatus?: (status: string) => void;
}

/** Defines `key` on `obj` as a value made on first read, then kept. */
function lazyField<T extends object, K extends keyof T>(obj: T, key: K, make: () => T[K]): void {
  Object.defineProperty(obj, key, {
    configurable: true,
    enumerable: true,
    get() {
      const value = make();
      Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
      return value;
    },
  });
}

const notFound: Failure = { ok: false, error: "session_not_found", message: "No such session." };

type Opened = { store: SessionStore; fs: GuardedFs; outbox: Outbox; tasks: TaskStore; alarms: AlarmScheduler; runs: BackgroundRuns; terminal?: TerminalSockets };

/** A byte stream pulling one stored chunk at a time. */
function streamOf(chunks: Generator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
}

/**
 * One agent session: its workspace, settings and tool-call log, all in this object's SQLite,
 * so everything survives eviction and restarts. Reached only through the Worker (HTTP, RPC),
 * which has already decided the tenant owns it.
 */
export class SessionDO extends DurableObject<Env> {
  private state: Opened | null = null;
  /** State-changing tools run one at a time; read-only ones run side by side. */
  private writeQueue: Promise<unknown> = Promise.resolve();
  /** Uploads opened and not yet finished (src/session/uploads.ts); they live with this instance. */
  private readonly uploads = new Uploads({
    openEditor: (path) => {
      const s = this.open();
      if (!s) return notFound;
      const cwd = s.store.read().cwd;
      return this.guard(s, "files.put", () => {
        const abs = s.fs.resolve(cwd, path);
        return s.fs.openEditor(abs, { create: true, truncate: true, createParents: true });
      });
    },
    written: () => this.lastRead.clear(),
    beforeCommit: () => {
      const s = this.open();
      if (s) checkpoints.beforeCall(s.fs, checkpoints.retentionOf(this.env));
    },
  });
  /** Wayland's read deduplication: the last stamp of each path and range read (see src/profiles/guards.ts). */
  private readonly lastRead = new Map<string, string>();
  private mcp: McpHttpHandler | null = null;
  /** The browser tool's live connection, kept while this instance lives (its session id is in SQLite). */
  private readonly browserLive: BrowserHost["live"] = {};
  /** Synchronous sub-agents running now (delegate); background ones are counted in SQLite. */
  private runningSubAgents = 0;

  /**
   * The session's MCP endpoint (`/v1/sessions/:id/mcp`): the Worker has checked the API key
   * and picked this object by tenant and id, so the session lives in the URL.
   */
  override async fetch(request: Request): Promise<Response> {
    const s = this.open();
    if (!s) return httpError(404, "session_not_found", "No such session.");
    if (new URL(request.url).pathname.endsWith("/terminal")) return this.openTerminal(s, request);
    this.mcp ??= createSessionMcpHandler(
      {
        tools: async () => {
          const meta = s.store.read();
          return exportTools(sessionTools(profileOf(meta.profile), meta.tools), "mcp");
        },
        call: (name, args) => this.callTool(name, args, { origin: new URL(request.url).origin }),
      },
      MCP_SERVER_VERSION,
    );
    return this.mcp.fetch(request);
  }

  /** The live terminal (`/v1/sessions/:id/terminal`, src/session/terminal-sockets.ts). */
  private openTerminal(s: Opened, request: Request): Response {
    const r = this.terminal(s).open(request);
    return r instanceof Response ? r : httpError(r.status, r.error, r.message);
  }

  /** The served tool that runs `bash` for a bare `{command}` (each profile names it its own way). */
  private shellTool(s: Opened): string | null {
    const meta = s.store.read();
    const served = sessionTools(profileOf(meta.profile), meta.tools);
    for (const t of served) {
      const parsed = t.params.safeParse({ command: "true" });
      if (
        parsed.success &&
        t.route(
          parsed.data,
          served.map((x) => x.name),
        ).tool === "bash"
      )
        return t.name;
    }
    return null;
  }

  /** Each line typed runs as a call of the session's shell tool: same policy, log and limits. */
  private terminal(s: Opened): TerminalSockets {
    return (s.terminal ??= new TerminalSockets(this.ctx.storage.sql, {
      shellTool: () => this.shellTool(s),
      run: async (tool, command, output) => {
        const call = this.prepareCall(tool, { command });
        if (!call.ok) return call;
        return { ok: true, result: await this.runCall(call, undefined, { output }) };
      },
      accept: (ws) => this.ctx.acceptWebSocket(ws),
      sockets: () => this.ctx.getWebSockets(),
    }));
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const s = this.open();
    if (!s) return ws.close(1011, "The session is gone.");
    return this.terminal(s).message(ws, message);
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    closeTerminal(ws, code);
  }

  /**
   * Opens the session if it was created; probing an unknown id writes nothing. `created`: the
   * tables were made a moment ago by `create`, so the upgrade of older sessions' tables is skipped.
   */
  private open(created = false): Opened | null {
    if (this.state) return this.state;
    const sql = this.ctx.storage.sql;
    if (!created) {
      if (!SessionStore.exists(sql)) return null;
      Workspace.initialize(this.ctx.storage);
      SessionStore.initialize(sql); // tables added since the session was created
    }
    const ws = new Workspace(this.ctx.storage, quotasFromEnv(this.env));
    const store = new SessionStore(sql);
    const fs = new GuardedFs(ws, FileRules.fromEnv(this.env.TOOLSHED_SENSITIVE_GLOBS));
    checkpoints.checkpointsOf(fs); // its triggers must be there before any write
    const tasks = new TaskStore(sql);
    const alarms = new AlarmScheduler(this.ctx.storage);
    const runs = new BackgroundRuns({
      tasks,
      alarms,
      // A resumed run has no request origin: send_file links are then paths (or TOOLSHED_PUBLIC_URL).
      host: () => this.subAgentHost(opened, profileOf(store.read().profile), store.read()),
      runningSync: () => this.runningSubAgents,
    });
    const opened: Opened = { store, fs, outbox: new Outbox(ws), tasks, alarms, runs };
    this.state = opened;
    return opened;
  }

  async create(opts: CreateOptions): Promise<SessionInfo> {
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      SessionStore.create(sql, opts);
      Workspace.initialize(this.ctx.storage);
    });
    const s = this.open(true)!;
    if (opts.cwd && opts.cwd !== ROOT) s.fs.mkdir(opts.cwd, { recursive: true });
    return this.describe(s);
  }

  async info(): Promise<SessionInfo | null> {
    const s = this.open();
    return s ? this.describe(s) : null;
  }

  private describe(s: { store: SessionStore; fs: GuardedFs }): SessionInfo {
    const m = s.store.read();
    const usage = s.fs.ws.usage();
    return {
      id: m.id,
      profile: m.profile,
      tools: sessionTools(profileOf(m.profile), m.tools).map((t) => t.name),
      mcpServers: m.mcpServers,
      cwd: m.cwd,
      status: m.status,
      createdAt: new Date(m.createdAt).toISOString(),
      lastUsedAt: new Date(m.lastUsedAt).toISOString(),
      usage: { ...usage, maxBytes: s.fs.ws.quotas.maxBytes, maxFiles: s.fs.ws.quotas.maxFiles, toolCalls: s.store.callCount() },
    };
  }

  /**
   * Runs one of the session's tools: the profile's parameters are validated, then its route
   * names the canonical tool and arguments, and the result comes back in the profile's shape.
   * `origin`: the API's origin as the caller reached it, for links in results (send_file).
   */
  async callTool(name: string, args: unknown, opts: { origin?: string; task?: string } = {}): Promise<Outcome<{ result: ToolResult; phases: Phases }>> {
    const laps = new Laps();
    const call = this.prepareCall(name, args);
    laps.lap("prepare");
    if (!call.ok) return call;
    const result = await this.runCall(call, opts.origin, {}, opts.task, laps);
    return { ok: true, result, phases: laps.phases };
  }

  /**
   * The same call as Server-Sent Events (start, stdout/stderr as the shell writes them,
   * status, then result or error). Refusals before the call starts (unknown tool, invalid
   * arguments) come back as a Failure, not as a stream. The call does not depend on the
   * stream being read: it runs to its end here even when the client has gone.
   */
  async callToolStream(name: string, args: unknown, opts: { origin?: string } = {}): Promise<Outcome<{ body: ReadableStream<Uint8Array> }>> {
    const call = this.prepareCall(name, args);
    if (!call.ok) return call;
    const stream = new CallStream();
    stream.send("start", { tool: name, started_at: new Date().toISOString() });
    const running = this.runCall(call, opts.origin, {
      output: stream.outputSink(),
      onStatus: (status) => stream.send("status", { status }),
    }).then(
      (result) => stream.send("result", result),
      (e: unknown) => {
        console.error("streamed tool call failed", e);
        stream.send("error", { error: "internal_error", message: "Internal error; the call may or may not have completed." });
      },
    );
    void running.finally(() => stream.close());
    return { ok: true, body: stream.body };
  }

  /** Finds the tool and validates its arguments; nothing runs and nothing is logged yet. */
  private prepareCall(name: string, args: unknown): Outcome<PreparedCall> {
    const s = this.open();
    if (!s) return notFound;
    const meta = s.store.read();
    const profile = profileOf(meta.profile);
    const served = sessionTools(profile, meta.tools);
    const entry = served.find((t) => t.name === name);
    const deferred = entry ? null : parseDeferredName(name);
    if (!entry && !(deferred && meta.mcpServers.includes(deferred.server))) {
      const names = served.map((t) => t.name).join(", ");
      const remote = deferred
        ? ` No MCP server '${deferred.server}' is attached to it (${meta.mcpServers.length ? `attached: ${meta.mcpServers.join(", ")}` : "none is attached"}); servers are chosen when the session is created.`
        : "";
      return { ok: false, error: "tool_not_found", message: `This session (profile ${profile.name}) has no tool '${name}'; its tools are: ${names}.${remote}` };
    }
    const parsed = (entry?.params ?? remoteArgs).safeParse(withoutNulls(args ?? {}));
    if (!parsed.success) {
      return { ok: false, error: "invalid_arguments", message: `Invalid arguments for ${name}: ${formatValidationError(parsed.error)}` };
    }
    if (!entry) return { ok: true, s, meta, profile, name, tool: remoteTool(name, deferred!.server, deferred!.tool), entry: null, args: parsed.data, call: null };
    const call = entry.route(
      parsed.data,
      served.map((t) => t.name),
    );
    return { ok: true, s, meta, profile, name, tool: TOOLS.get(call.tool)!, entry, args: parsed.data, call };
  }

  /** Runs a prepared call under the session's rules and logs it; `watch` sees it as it runs. */
  private async runCall(p: PreparedCall, origin?: string, watch: CallWatch = {}, task?: string, laps?: Laps): Promise<ToolResult> {
    const { s, profile, name, entry, call, tool } = p;
    // Many sessions share this thread: a burst of calls starts one per socket poll (turns.ts).
    await takeTurn();
    laps?.lap("turn");
    const run = async (): Promise<ToolResult> => {
      laps?.lap("queue");
      const ctx = this.context(s, profile, origin, task, p.meta, watch);
      laps?.lap("policy");
      const memory = { wasRead: (p: string) => s.store.wasRead(p), markRead: (p: string) => s.store.markRead(p), lastRead: this.lastRead };
      if (!tool.readOnly) this.lastRead.clear();
      const retention = checkpoints.retentionOf(this.env);
      const checkpoint = call && checkpoints.FILE_CHANGING_TOOLS.has(call.tool) ? checkpoints.beforeCall(s.fs, retention) : null;
      laps?.lap("checkpoint");
      const started = Date.now();
      let result: ToolResult;
      try {
        if (call) {
          result = beforeCall(profile, ctx, call, memory) ?? (await tool.run(ctx, call.args as never));
          result = afterCall(profile, ctx, call, result, memory);
        } else {
          result = await tool.run(ctx, p.args as never);
        }
      } catch (e) {
        result = errorResult(e);
      }
      if (entry?.toResult) result = entry.toResult(result, p.args);
      laps?.lap("run");
      s.store.logCall({
        tool: name,
        started,
        durationMs: Date.now() - started,
        outcome: result.denied ? "denied" : result.success ? "ok" : "error",
        denied: result.denied,
        detail: result.error?.slice(0, 500),
        ...(task ? { task } : {}),
        ...(checkpoint !== null ? { checkpoint } : {}),
      });
      s.store.set("lastUsedAt", Date.now());
      laps?.lap("log");
      if (checkpoint !== null) checkpoints.applyRetention(this.checkpointSession(s, p.meta), retention);
      // Apart from "log", so the bench can read what automatic checkpoints cost a call.
      laps?.lap("retention");
      // Background tasks this caller spawned that have finished since: delivered once, here.
      const done = withPendingMessages(result, s.tasks.takeUndelivered(task ?? ""));
      laps?.lap("log");
      return done;
    };
    return tool.readOnly ? run() : this.serialized(run);
  }

  /** What a tool sees of this session. */
  private context(s: Opened, profile: Profile, origin?: string, task?: string, meta = s.store.read(), watch: CallWatch = {}): ToolContext {
    const policy = sessionPolicy(profile.rules, this.env);
    const net = netContextFromEnv(this.env, meta.urlRules);
    const onStatus = watch.onStatus;
    const ctx: ToolContext = {
      sessionId: meta.id,
      fs: s.fs,
      cwd: meta.cwd,
      env: policy.scrub(meta.env),
      policy,
      workerEnv: this.env,
      setStatus: (status) => {
        s.store.set("status", status);
        onStatus?.(status);
      },
      output: watch.output,
      net,
      outbox: {
        send: async (path, caption) => {
          const entry = s.outbox.add(path, { caption, ttlSeconds: outboxTtlSecondsFromEnv(this.env) });
          return this.sentFile(meta, entry, origin);
        },
      },
      checkpoints: { create: (label) => checkpoints.checkpointsOf(s.fs).create(label ?? null, "manual") },
    };
    // Built when a tool first asks for them: a bash call needs none of the three.
    lazyField(ctx, "deferred", () => this.deferredHost(s, meta, net));
    lazyField(ctx, "browser", () => this.browserHost(s));
    lazyField(ctx, "agents", () => this.subAgentHost(s, profile, meta, origin, task));
    return ctx;
  }

  /**
   * Sub-agents call tools through `callTool`, exactly as an HTTP or MCP client does. `task`:
   * the sub-agent making the current call, which is then the spawner of what it spawns.
   */
  private subAgentHost(s: Opened, profile: Profile, meta: SessionMeta, origin?: string, task?: string): SubAgentHost {
    const served = sessionTools(profile, meta.tools);
    const host: SubAgentHost = {
      tools: () => {
        const specs = exportTools(served, "openai") as unknown as FunctionTool[];
        return new Map(specs.map((spec) => [spec.function.name, spec]));
      },
      canonical: (name) => {
        const entry = served.find((t) => t.name === name);
        return entry ? (entry.canonical ?? name) : undefined;
      },
      model: () => chatModel(modelConfigFromEnv(this.env)),
      call: async (name, args, task) => {
        const r = await this.callTool(name, args, { origin, task });
        return r.ok ? r.result : { success: false, error: r.message };
      },
      logRefusal: (name, task, denied) => {
        s.store.logCall({ tool: name, started: Date.now(), durationMs: 0, outcome: "denied", denied, detail: denied.reason, task });
      },
      claim: (n) => {
        if (s.runs.running() + n > MAX_RUNNING_SUBAGENTS) return false;
        this.runningSubAgents += n;
        return true;
      },
      release: (n) => {
        this.runningSubAgents -= n;
      },
      spawn: (request) => s.runs.start(host, task ?? "", request),
    };
    return host;
  }

  /** Each kind of alarm job and its handler (src/session/alarms.ts); add a kind here. */
  private alarmHandlers(s: Opened): Record<string, AlarmHandler> {
    return {
      [SUBAGENT_JOB]: s.runs.onAlarm,
      [BROWSER_IDLE_JOB]: async () => {
        await closeBrowser(this.browserHost(s));
      },
    };
  }

  override async alarm(): Promise<void> {
    const s = this.open();
    if (!s) return cleanupHalfFork(this.ctx.storage);
    await s.alarms.run(this.alarmHandlers(s));
  }

  /** Background tasks, newest first (`GET /v1/sessions/:id/tasks`). */
  async tasks(): Promise<TaskView[] | null> {
    const s = this.open();
    return s ? s.tasks.list().map(viewOf) : null;
  }

  /** One background task, or null when the session or the task is unknown. */
  async task(id: string): Promise<{ found: boolean; task?: TaskView } | null> {
    const s = this.open();
    if (!s) return null;
    const t = s.tasks.get(id);
    return t ? { found: true, task: viewOf(t) } : { found: false };
  }

  /** The attached MCP servers' tools; a server the URL policy refuses is logged as a refusal. */
  private deferredHost(s: Opened, meta: SessionMeta, net: NetContext): DeferredTools {
    return deferredTools(this.env, net, meta.mcpServers, (server, denied) =>
      s.store.logCall({ tool: `mcp__${server}`, started: Date.now(), durationMs: 0, outcome: "denied", denied, detail: denied.reason.slice(0, 500) }),
    );
  }

  private browserHost(s: Opened): BrowserHost {
    return {
      binding: this.env.BROWSER,
      get: () => s.store.browserValue("browser"),
      set: (state) => s.store.setBrowserValue("browser", state),
      refs: () => s.store.browserValue("browser_refs"),
      setRefs: (refs) => s.store.setBrowserValue("browser_refs", refs),
      // A request the page made on its own: logged as a refusal of the browser tool.
      logDenial: (denied, url) =>
        s.store.logCall({ tool: "browser", started: Date.now(), durationMs: 0, outcome: "denied", denied, detail: `Request blocked: ${url.slice(0, 400)}` }),
      live: this.browserLive,
      idle: (running) => (running ? s.alarms.schedule(BROWSER_IDLE_JOB, BROWSER_IDLE_JOB, Date.now() + browserIdleMs(this.env), {}) : s.alarms.cancel(BROWSER_IDLE_JOB)),
    };
  }

  /** The session's tools in a client's format, descriptions that depend on the session computed for it. */
  async tools(format: Format = "jsonschema"): Promise<Json[] | null> {
    const s = this.open();
    if (!s) return null;
    const meta = s.store.read();
    const profile = profileOf(meta.profile);
    const ctx = this.context(s, profile, undefined, undefined, meta);
    const tools = sessionTools(profile, meta.tools).map((t) => (t.describe ? { ...t, description: t.describe(ctx) } : t));
    return exportTools(tools, format);
  }

  private serialized<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.writeQueue.then(fn, fn);
    this.writeQueue = next.catch(() => undefined);
    return next;
  }

  /** Runs a file operation under the policy, logging refusals as tool calls do. */
  private guard<T>(s: { store: SessionStore }, op: string, fn: () => T): Outcome<{ value: T }> {
    const started = Date.now();
    try {
      return { ok: true, value: fn() };
    } catch (e) {
      if (e instanceof PolicyDenied) {
        s.store.logCall({ tool: op, started, durationMs: Date.now() - started, outcome: "denied", denied: e.denial, detail: e.message });
        return { ok: false, error: "denied", message: e.message, denied: e.denial };
      }
      if (isVfsError(e)) return { ok: false, error: "fs", code: e.code, message: `${relativeToRoot(e.path)}: ${e.description}` };
      throw e;
    }
  }

  /** Streams a file out, one stored chunk at a time. */
  async download(path: string): Promise<Outcome<{ size: number; body: ReadableStream<Uint8Array> }>> {
    const s = this.open();
    if (!s) return notFound;
    const cwd = s.store.read().cwd;
    const r = this.guard(s, "files.get", () => {
      const abs = s.fs.resolve(cwd, path);
      s.fs.rules.checkRead(abs); // refused whether or not it exists
      const info = s.fs.mustStat(abs);
      if (info.kind === "dir") return { info, chunks: null };
      return { info, chunks: s.fs.chunks(abs) };
    });
    if (!r.ok) return r;
    const { info, chunks } = r.value;
    if (!chunks) return { ok: false, error: "fs", code: "EISDIR", message: `${relativeToRoot(info.path)}: Is a directory` };
    const body = streamOf(chunks);
    return { ok: true, size: info.size, body };
  }

  /** Opens a pending upload; the policy is asked here, before any body is sent (src/session/uploads.ts). */
  async openUpload(path: string): Promise<Outcome<{ uploadId: string }>> {
    if (!this.open()) return notFound;
    return this.uploads.open(path);
  }

  /** Streams a request body into an opened upload; nothing is visible until `finishUpload`. */
  upload(uploadId: string, body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Outcome<{ size: number }>> {
    return this.uploads.receive(uploadId, body, maxBytes);
  }

  /** Commits (or throws away) a pending upload. */
  finishUpload(uploadId: string, commit: boolean): Promise<Outcome<{ size: number; path: string }>> {
    return this.uploads.finish(uploadId, commit);
  }

  async removeFile(path: string, recursive: boolean): Promise<Outcome<{ path: string }>> {
    const s = this.open();
    if (!s) return notFound;
    const cwd = s.store.read().cwd;
    const r = this.guard(s, "files.delete", () => {
      const abs = s.fs.resolve(cwd, path);
      this.lastRead.clear();
      checkpoints.beforeCall(s.fs, checkpoints.retentionOf(this.env));
      s.fs.remove(abs, { recursive });
      return relativeToRoot(abs);
    });
    return r.ok ? { ok: true, path: r.value } : r;
  }

  /** The outbox, newest first, each entry with a fresh copy of its signed link. */
  async outboxList(origin?: string): Promise<SentFile[] | null> {
    const s = this.open();
    if (!s) return null;
    const meta = s.store.read();
    return Promise.all(s.outbox.list().map((e) => this.sentFile(meta, e, origin)));
  }

  /** Streams a sent file; the Worker has already checked the link's signature and expiry. */
  async outboxDownload(entryId: string): Promise<Outcome<{ name: string; size: number; body: ReadableStream<Uint8Array> }>> {
    const s = this.open();
    if (!s) return notFound;
    const opened = s.outbox.open(entryId);
    if (!opened) return { ok: false, error: "fs", code: "ENOENT", message: "This file is no longer in the outbox; ask the agent to send it again." };
    return { ok: true, name: opened.entry.name, size: opened.entry.size, body: streamOf(opened.chunks) };
  }

  private async sentFile(meta: SessionMeta, e: OutboxEntry, origin?: string): Promise<SentFile> {
    const url = await downloadLink({ env: this.env, tenant: meta.tenant, session: meta.id, origin }, e);
    return { ...e, createdAt: new Date(e.createdAt).toISOString(), expiresAt: new Date(e.expiresAt).toISOString(), url };
  }

  /** One directory of the workspace (names and sizes are metadata, open to the owner as in list_dir). */
  async listDir(path: string): Promise<Outcome<{ path: string; entries: DirEntry[] }>> {
    const s = this.open();
    if (!s) return notFound;
    const r = this.guard(s, "files.list", () => {
      const abs = s.fs.resolve(ROOT, path);
      const entries = s.fs
        .readdir(abs)
        .map((e) => ({ name: e.path.slice(e.path.lastIndexOf("/") + 1), path: e.path, kind: e.kind, size: e.size, modified: new Date(e.mtimeMs).toISOString() }));
      entries.sort((a, b) => Number(b.kind === "dir") - Number(a.kind === "dir") || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return { path: abs, entries };
    });
    return r.ok ? { ok: true, ...r.value } : r;
  }

  async log(limit: number): Promise<ToolCallRecord[] | null> {
    const s = this.open();
    return s ? s.store.calls(limit) : null;
  }

  /**
   * The workspace tables' invariants (src/vfs/consistency.ts), for the operator's check after a
   * crash. Uploads still pending in this instance may hold one uncommitted blob each.
   */
  async consistency(): Promise<{ problems: string[]; pendingUploads: number } | null> {
    if (!this.open()) return null;
    return { problems: checkConsistency(this.ctx.storage.sql, { allowUncommitted: this.uploads.pending }), pendingUploads: this.uploads.pending };
  }

  /** Checkpoints: create, list, delete, restore, diff, undo (src/session/checkpoints.ts). */
  async checkpoint(req: checkpoints.CheckpointRequest): Promise<checkpoints.CheckpointAnswer | null> {
    const s = this.open();
    if (!s) return null;
    const run = async () => {
      const r = await checkpoints.runCheckpointOp(this.checkpointSession(s), req, checkpoints.retentionOf(this.env));
      if (req.op === "restore" || req.op === "undo") this.lastRead.clear();
      return r;
    };
    // Restores change files: they wait for running writers, as tool calls do.
    return req.op === "restore" || req.op === "undo" ? this.serialized(run) : run();
  }

  /** `meta`: the call's settings when it has them (a call reads them once). */
  private checkpointSession(s: Opened, meta: SessionMeta = s.store.read()): checkpoints.CheckpointSession {
    return { fs: s.fs, cwd: meta.cwd, linkedCheckpoints: (n) => s.store.linkedCheckpoints(n) };
  }

  /** A checkpoint's tree (or one taken now) as a stream, for a fork; also the settings a fork copies. */
  async exportFork(id?: number): Promise<{ ok: true; body: ReadableStream<Uint8Array>; checkpoint: number; meta: SessionMeta } | checkpoints.CheckpointAnswer | null> {
    const s = this.open();
    if (!s) return null;
    const r = checkpoints.exportForFork(s.fs, id);
    return "body" in r ? { ...r, meta: s.store.read() } : r;
  }

  /** Becomes a new session whose workspace is the streamed tree: whole, or (cut off) not at all. */
  async importFork(opts: CreateOptions, body: ReadableStream<Uint8Array>): Promise<SessionInfo> {
    await importFork(this.ctx.storage, opts, body, quotasFromEnv(this.env));
    return this.describe(this.open()!);
  }

  async meta(): Promise<SessionMeta | null> {
    const s = this.open();
    return s ? s.store.read() : null;
  }

  /** Erases the workspace and every setting; the id is gone for good. */
  async destroy(): Promise<boolean> {
    const s = this.open();
    if (!s) return false;
    await closeBrowser(this.browserHost(s));
    this.state = null;
    await this.mcp?.close();
    this.mcp = null;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    return true;
  }
}
