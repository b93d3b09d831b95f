// `select name in words; do ...; done` as bash runs it: the menu and the PS3 prompt go to
// stderr, each answer is read from stdin into REPLY, `name` gets the chosen word (empty for an
// answer that is not a number in the menu), an empty answer shows the menu again, and end of
// input ends the loop with status 1. The menu's layout is bash's print_select_list.
import type { Fd, Shell } from "./shell";
import { decode, encode } from "../bytes";
import { traceRaw } from "./xtrace";

const TAB = 8;

/** bash's menu: one column while it all fits on one row, else columns down then across. */
function selectMenu(items: string[], columns: number): string {
  const indices = String(items.length).length;
  const widest = Math.max(0, ...items.map((s) => s.length)) + indices + 4; // ") " and two spaces
  let cols = widest ? Math.floor(columns / widest) || 1 : 1;
  let rows = items.length ? Math.floor(items.length / cols) + (items.length % cols ? 1 : 0) : 1;
  cols = items.length ? Math.floor(items.length / rows) + (items.length % rows ? 1 : 0) : 1;
  if (rows === 1) {
    rows = cols;
    cols = 1;
  }
  let out = "";
  // the first column's numbers are only as wide as its own largest (bash 5.2)
  const firstIndices = String(rows).length;
  for (let row = 0; row < rows; row++) {
    let pos = 0;
    for (let ind = row; ; ) {
      const cell = `${String(ind + 1).padStart(pos === 0 ? firstIndices : indices)}) ${items[ind]}`;
      out += cell;
      ind += rows;
      if (ind >= items.length) break;
      // indent with tabs, then spaces, to the next column (bash's indent())
      let from = pos + cell.length;
      const to = pos + widest;
      while (Math.floor(to / TAB) > Math.floor(from / TAB)) {
        out += "\t";
        from += TAB - (from % TAB);
      }
      while (from < to) {
        out += " ";
        from++;
      }
      pos += widest;
    }
    out += "\n";
  }
  return out;
}

/**
 * Runs the loop. `body` runs the loop body once and returns its status, or `brk` when `break`
 * left the loop.
 */
export async function runSelect(
  sh: Shell,
  cmd: { name: string; text?: string },
  items: string[],
  fds: Fd[],
  body: () => number | Promise<number>,
  brk: number,
): Promise<number> {
  if (!items.length) return 0;
  const err = (s: string) => fds[2]?.w?.write(encode(s)).catch(() => {});
  const columns = Number(sh.vars.get("COLUMNS")) || 80;
  if (sh.opts.xtrace) await traceRaw(sh, fds, `select ${cmd.name} in ${cmd.text ?? '"$@"'}`);
  let st = 0;
  let menu = true;
  for (;;) {
    sh.shared.budget.step();
    if (menu) await err(selectMenu(items, columns));
    await err(sh.vars.get("PS3") ?? "#? ");
    const r = await fds[0]?.r?.readUntil(10);
    if (!r || (!r.hitDelim && r.data.length === 0)) {
      // bash ends the prompt's line on stdout
      await fds[1]?.w?.write(encode("\n")).catch(() => {});
      sh.vars.set("REPLY", "");
      return 1;
    }
    let answer = decode(r.data);
    if (r.hitDelim) answer = answer.slice(0, -1);
    sh.vars.set("REPLY", answer);
    if (answer === "") {
      menu = true;
      continue;
    }
    menu = false;
    const n = /^\s*\d+\s*$/.test(answer) ? Number(answer) : 0;
    sh.vars.set(cmd.name, n >= 1 && n <= items.length ? items[n - 1] : "");
    const r2 = await body();
    if (r2 === brk) return st;
    st = r2;
  }
}
