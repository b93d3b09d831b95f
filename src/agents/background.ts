import type { AlarmScheduler } from "../session/alarms";
import { viewOf, type TaskRecord, type TaskSpec, type TaskStore, type TaskView } from "./tasks";
import { ToolError } from "../tools/result";
import type { SpawnRequest, SubAgentHost } from "./host";
import { initialState, runSubAgent, type SubAgentOutcome } from "./loop";
import { checkSubAgentTools, MAX_RUNNING_SUBAGENTS, tooManyRunning } from "./run";

/** The alarm job kind of a background sub-agent run (src/session/alarms.ts). */
export const SUBAGENT_JOB = "subagent";
/**
 * The run's alarm is first due this long after the spawn: until then the object is alive
 * anyway (it just served the spawning request); from then the alarm being handled holds it.
 */
const ALARM_DELAY_MS = 1000;

/**
 * Background sub-agents of one session object. A run starts at once in memory and is also an
 * alarm job: the alarm handler waits for the run (an alarm being handled keeps the
 * object alive past the request that spawned it), and after an eviction it finds the task
 * still `running` in SQLite and resumes it from its last saved step.
 */
export class BackgroundRuns {
  private readonly active = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      tasks: TaskStore;
      alarms: AlarmScheduler;
      /** The session's dispatch for a background task's tool calls. */
      host: () => SubAgentHost;
      /** Synchronous sub-agents running now in this instance (delegate). */
      runningSync: () => number;
    },
  ) {}

  /** Sub-agents running in the session: synchronous ones here, background ones as stored. */
  running(): number {
    return this.deps.runningSync() + this.deps.tasks.running();
  }

  /** Starts a run for `spawner` ("" for the session's caller, else a sub-agent's task id). */
  async start(host: SubAgentHost, spawner: string, req: SpawnRequest): Promise<TaskView> {
    const tools = checkSubAgentTools(host, req.tools, "tools");
    host.model(); // a missing model is refused now, not reported later
    // Counted and inserted with no await between: two spawns cannot both take the last slot.
    if (this.running() + 1 > MAX_RUNNING_SUBAGENTS) throw tooManyRunning();
    const id = `task-${crypto.randomUUID()}`;
    const now = Date.now();
    const spec: TaskSpec = { prompt: req.prompt, tools, maxTurns: req.maxTurns, timeoutSeconds: req.timeoutSeconds, ...(req.persona ? { system: req.persona } : {}) };
    this.deps.tasks.insert({ id, spawner, label: req.label, spec, state: initialState(spec), created: now, deadline: now + req.timeoutSeconds * 1000 });
    await this.deps.alarms.schedule(SUBAGENT_JOB, id, now + ALARM_DELAY_MS, { task: id });
    void this.ensure(id);
    return viewOf(this.deps.tasks.get(id)!);
  }

  /** The alarm job: the run in memory, or its resumption from SQLite; safe to call twice. */
  readonly onAlarm = async (payload: unknown): Promise<void> => {
    const id = (payload as { task?: unknown } | null)?.task;
    if (typeof id === "string") await this.ensure(id);
  };

  private ensure(id: string): Promise<void> {
    const live = this.active.get(id);
    if (live) return live;
    const rec = this.deps.tasks.get(id);
    if (!rec || rec.status !== "running") return Promise.resolve();
    const run = this.run(rec).finally(() => this.active.delete(id));
    this.active.set(id, run);
    return run;
  }

  private async run(rec: TaskRecord): Promise<void> {
    const { tasks } = this.deps;
    let outcome: SubAgentOutcome;
    try {
      const host = this.deps.host();
      outcome = await runSubAgent(host.model(), host, { id: rec.id, ...rec.spec }, { deadline: rec.deadline, state: rec.state, save: (s) => tasks.saveState(rec.id, s) });
    } catch (e) {
      if (!(e instanceof ToolError)) console.error(`background task ${rec.id} failed`, e);
      const report = e instanceof ToolError ? e.message : "The sub-agent stopped on an internal error.";
      outcome = { task: rec.id, success: false, report, turns: rec.state.turns, toolCalls: rec.state.toolCalls, timedOut: false };
    }
    try {
      tasks.finish(rec.id, outcome, outcome.timedOut ? "timeout" : outcome.success ? "done" : "failed");
    } catch (e) {
      // The session was deleted while the task ran: nothing is left to report to.
      console.error(`background task ${rec.id}: result not stored`, e);
    }
  }
}
