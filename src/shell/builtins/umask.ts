// umask: the file-creation mask, kept as shell state and inherited by subshells; redirections
// and the programs the shell starts (ProgramIo.umask) create files and directories with it.
import type { Fd, Shell } from "../interp/shell";
import { getUmask } from "../interp/options";
import { berr, out } from "./io";

function symbolicString(mask: number): string {
  const allowed = ~mask & 0o777;
  const part = (shift: number) => ["r", "w", "x"].filter((_, k) => allowed & ((4 >> k) << shift)).join("");
  return `u=${part(6)},g=${part(3)},o=${part(0)}`;
}

/** Applies a chmod-style clause list (u=rwx,g-w,...) to a mask; null when malformed. */
function applySymbolic(mask: number, text: string): number | null {
  let allowed = ~mask & 0o777;
  for (const clause of text.split(",")) {
    let i = 0;
    let who = 0;
    for (; i < clause.length && "ugoa".includes(clause[i]); i++) who |= { u: 0o700, g: 0o070, o: 0o007, a: 0o777 }[clause[i] as "u"];
    if (!who) who = 0o777;
    if (i >= clause.length) return null; // a clause needs an operator
    while (i < clause.length) {
      const op = clause[i++];
      if (op !== "+" && op !== "-" && op !== "=") return null;
      let perm = 0;
      for (; i < clause.length && !"+-=".includes(clause[i]); i++) {
        const c = clause[i];
        if (c === "r") perm |= 0o444;
        else if (c === "w") perm |= 0o222;
        else if (c === "x") perm |= 0o111;
        else return null;
      }
      perm &= who;
      if (op === "+") allowed |= perm;
      else if (op === "-") allowed &= ~perm;
      else allowed = (allowed & ~who) | perm;
    }
  }
  return ~allowed & 0o777;
}

export async function umask(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let symbolic = false,
    reusable = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      i++;
      break;
    }
    if (!/^-[^-]/.test(a) || a.length < 2) break;
    for (const c of a.slice(1)) {
      if (c === "S") symbolic = true;
      else if (c === "p") reusable = true;
      else {
        await berr(sh, fds, "umask", `-${c}: invalid option`);
        await sh.err(fds, "umask: usage: umask [-p] [-S] [mode]");
        return 2;
      }
    }
  }
  const mode = argv[i]; // bash looks only at the first operand
  const mask = getUmask(sh);
  if (mode === undefined) {
    const shown = symbolic ? symbolicString(mask) : mask.toString(8).padStart(4, "0");
    await out(fds, (reusable ? (symbolic ? "umask -S " : "umask ") : "") + shown + "\n");
    return 0;
  }
  if (/^[0-9]/.test(mode) || mode === "") {
    if (!/^[0-7]+$/.test(mode) || parseInt(mode, 8) > 0o777) {
      await berr(sh, fds, "umask", `${mode}: octal number out of range`);
      return 1;
    }
    sh.builtinState.set("umask", parseInt(mode, 8));
    return 0;
  }
  const next = applySymbolic(mask, mode);
  if (next === null) {
    await berr(sh, fds, "umask", `\`${mode}': invalid symbolic mode operator`);
    return 1;
  }
  sh.builtinState.set("umask", next);
  if (symbolic) await out(fds, symbolicString(next) + "\n");
  return 0;
}
