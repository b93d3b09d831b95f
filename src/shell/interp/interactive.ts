// `bash -i`: an interactive shell fed from stdin (or -c). There is no terminal, but the
// observable parts of interactivity still apply: the rc file is sourced, each complete
// command is recorded in history ($HISTFILE loaded at start, written at exit), PS1 is
// printed to stderr before reading each command, and PROMPT_COMMAND runs before each prompt.
import type { Fd, Shell } from "./shell";
import { encode } from "../bytes";
import { expandPrompt, isPromptError } from "../expand/prompt";
import { addHistory, loadHistoryFile, saveHistoryFile } from "./history";

export interface InteractiveOpts {
  /** --rcfile value; undefined means ~/.bashrc */
  rcfile?: string;
  norc: boolean;
  /** commands come from stdin (prompts and history apply), not -c */
  fromStdin: boolean;
}

async function prompt(sh: Shell, fds: Fd[]): Promise<void> {
  const saved = sh.status;
  const pc = sh.vars.get("PROMPT_COMMAND");
  if (pc) {
    try {
      await sh.evalString(pc, fds, "PROMPT_COMMAND");
    } catch (e) {
      if (!isPromptError(e)) throw e; /* a failing PROMPT_COMMAND does not end the shell */
    }
  }
  sh.status = saved;
  const ps1 = sh.vars.get("PS1");
  if (ps1) {
    let text = ps1;
    try {
      text = await expandPrompt(sh, ps1);
    } catch (e) {
      if (!isPromptError(e)) throw e; /* show it raw */
    }
    sh.status = saved;
    await fds[2]?.w?.write(encode(text)).catch(() => {});
  }
}

/** Hook for every top-level complete command: counts commands (prompt \#) and records
 * history when `set -o history` is on (bash does this even without -i). */
export async function topLevelCommand(sh: Shell, text: string, fds: Fd[]): Promise<void> {
  sh.builtinState.set("cmdnum", ((sh.builtinState.get("cmdnum") as number | undefined) ?? 0) + 1);
  if (sh.opts.history && text) addHistory(sh, text);
  // set -v: echo input as it is read (the text of each complete command)
  if (sh.opts.verbose && text && !sh.builtinState.get("interactive")) await fds[2]?.w?.write(encode(text + "\n")).catch(() => {});
}

async function echoInput(sh: Shell, fds: Fd[], text: string): Promise<void> {
  const lines = text.split("\n");
  let ps2 = sh.vars.get("PS2") ?? "";
  const saved = sh.status;
  try {
    ps2 = await expandPrompt(sh, ps2);
  } catch (e) {
    if (!isPromptError(e)) throw e; /* show it raw */
  }
  sh.status = saved;
  const echoed = lines.map((l, i) => (i ? ps2 : "") + l + "\n").join("");
  await fds[2]?.w?.write(encode(echoed)).catch(() => {});
}

export async function runInteractive(sh: Shell, script: string, fds: Fd[], o: InteractiveOpts): Promise<number> {
  sh.builtinState.set("interactive", true);
  sh.opts.history = true;
  if (sh.vars.get("PS1") === undefined) sh.vars.set("PS1", "\\s-\\v\\$ ");
  if (sh.vars.get("PS2") === undefined) sh.vars.set("PS2", "> ");
  if (sh.vars.get("HISTFILE") === undefined) sh.vars.set("HISTFILE", (sh.vars.get("HOME") ?? "") + "/.bash_history");
  const rc = o.norc ? undefined : (o.rcfile ?? (sh.vars.get("HOME") ?? "") + "/.bashrc");
  if (rc !== undefined && rc !== "/dev/null") {
    let exists = false;
    try {
      exists = sh.host.fs.stat(sh.host.resolvePath(sh.cwd, rc))?.type === "file";
    } catch {
      /* unreadable */
    }
    if (exists) sh.status = await sh.invoke(["source", rc], fds);
  }
  loadHistoryFile(sh);
  try {
    if (!o.fromStdin) return await sh.runScript(script, fds);
    await prompt(sh, fds);
    const st = await sh.runScript(
      script,
      fds,
      2,
      async (text) => {
        // readline echoes input that does not come from a terminal; continuation lines get PS2
        await echoInput(sh, fds, text);
        await topLevelCommand(sh, text, fds);
      },
      async () => prompt(sh, fds),
    );
    await fds[2]?.w?.write(encode("exit\n")).catch(() => {});
    return st;
  } finally {
    saveHistoryFile(sh);
  }
}
