// `help [-dms] [pattern ...]`: bash's help builtin over its builtins' synopses and one-line
// summaries (help-topics.ts, recorded from Debian's bash). `-s` and `-d` print what bash prints;
// the long texts are not shipped, so `help NAME` and `-m` give the synopsis and summary and say
// where the full text is.
import type { Fd, Shell } from "../interp/shell";
import { matchPattern } from "../expand/pattern";
import { HELP_TOPICS } from "./help-topics";
import { berr, out } from "./io";

const topicName = (n: string, synopsis: string) => (n === "[[" || n === "((" ? synopsis.replace(/ [^ ]+ ([\])]+)$/, " ... $1") : n);

export async function help(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let mode = "";
  let i = 1;
  for (; i < argv.length && argv[i].startsWith("-") && argv[i] !== "-"; i++) {
    if (argv[i] === "--") {
      i++;
      break;
    }
    for (const c of argv[i].slice(1)) {
      if (!"dms".includes(c)) {
        await berr(sh, fds, "help", `-${c}: invalid option`);
        await sh.err(fds, "help: usage: help [-dms] [pattern ...]");
        return 2;
      }
      mode = c;
    }
  }
  const patterns = argv.slice(i);
  if (!patterns.length) {
    const lines = HELP_TOPICS.map(([, syn]) => ` ${syn}`);
    await out(
      fds,
      "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)\nThese shell commands are defined internally.  Type `help' to see this list.\nType `help name' to find out more about the function `name'.\n\n" +
        lines.join("\n") +
        "\n",
    );
    return 0;
  }
  let st = 0;
  for (const p of patterns) {
    const hits = HELP_TOPICS.filter(([n]) => n === p || matchPattern(n, p) || (!/[*?[]/.test(p) && n.startsWith(p)));
    if (!hits.length) {
      await berr(sh, fds, "help", `no help topics match \`${p}'.  Try \`help help' or \`man -k ${p}' or \`info ${p}'.`);
      st = 1;
      continue;
    }
    for (const [n, syn, sum] of hits) {
      const name = topicName(n, syn);
      if (mode === "s") await out(fds, `${name}: ${syn}\n`);
      else if (mode === "d") await out(fds, `${name} - ${sum}\n`);
      else if (mode === "m")
        await out(
          fds,
          `NAME\n    ${name} - ${sum}\n\nSYNOPSIS\n    ${syn}\n\nDESCRIPTION\n    ${sum}\n    (The full text is in bash's manual, SHELL BUILTIN COMMANDS; this sandbox ships the summaries only.)\n\n`,
        );
      else await out(fds, `${name}: ${syn}\n    ${sum}\n    \n    The full text is in bash's manual (SHELL BUILTIN COMMANDS); this sandbox ships the summaries only.\n`);
    }
  }
  return st;
}
