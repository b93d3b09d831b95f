// bind: a model of readline's key bindings and variables. There is no line editor in a
// tool run, so bindings never fire; bind keeps per-keymap tables so that scripts which
// configure readline (and query it back with -p -P -q -X -v -V) behave as under bash.
import type { Fd, Shell } from "../interp/shell";
import { berr, out } from "./io";

// A representative set of readline commands (names as readline spells them).
const FUNCTIONS = [
  "abort",
  "accept-line",
  "backward-char",
  "backward-delete-char",
  "backward-kill-line",
  "backward-kill-word",
  "backward-word",
  "beginning-of-history",
  "beginning-of-line",
  "call-last-kbd-macro",
  "capitalize-word",
  "character-search",
  "character-search-backward",
  "clear-screen",
  "complete",
  "complete-command",
  "complete-filename",
  "complete-hostname",
  "complete-into-braces",
  "complete-username",
  "complete-variable",
  "copy-backward-word",
  "copy-forward-word",
  "copy-region-as-kill",
  "delete-char",
  "delete-char-or-list",
  "delete-horizontal-space",
  "digit-argument",
  "display-shell-version",
  "do-lowercase-version",
  "downcase-word",
  "dump-functions",
  "dump-macros",
  "dump-variables",
  "dynamic-complete-history",
  "edit-and-execute-command",
  "emacs-editing-mode",
  "end-kbd-macro",
  "end-of-history",
  "end-of-line",
  "exchange-point-and-mark",
  "forward-backward-delete-char",
  "forward-char",
  "forward-search-history",
  "forward-word",
  "glob-complete-word",
  "glob-expand-word",
  "glob-list-expansions",
  "history-and-alias-expand-line",
  "history-expand-line",
  "history-search-backward",
  "history-search-forward",
  "insert-comment",
  "insert-completions",
  "insert-last-argument",
  "kill-line",
  "kill-region",
  "kill-whole-line",
  "kill-word",
  "magic-space",
  "menu-complete",
  "menu-complete-backward",
  "next-history",
  "non-incremental-forward-search-history",
  "non-incremental-reverse-search-history",
  "operate-and-get-next",
  "overwrite-mode",
  "possible-command-completions",
  "possible-completions",
  "possible-filename-completions",
  "possible-variable-completions",
  "previous-history",
  "quoted-insert",
  "re-read-init-file",
  "redraw-current-line",
  "reverse-search-history",
  "revert-line",
  "self-insert",
  "set-mark",
  "shell-backward-word",
  "shell-expand-line",
  "shell-forward-word",
  "shell-kill-word",
  "start-kbd-macro",
  "tab-insert",
  "tilde-expand",
  "transpose-chars",
  "transpose-words",
  "undo",
  "universal-argument",
  "unix-filename-rubout",
  "unix-line-discard",
  "unix-word-rubout",
  "upcase-word",
  "vi-append-eol",
  "vi-append-mode",
  "vi-change-case",
  "vi-change-char",
  "vi-change-to",
  "vi-char-search",
  "vi-column",
  "vi-complete",
  "vi-delete",
  "vi-delete-to",
  "vi-editing-mode",
  "vi-end-word",
  "vi-eof-maybe",
  "vi-fetch-history",
  "vi-first-print",
  "vi-goto-mark",
  "vi-insert-beg",
  "vi-insertion-mode",
  "vi-match",
  "vi-movement-mode",
  "vi-next-word",
  "vi-overstrike",
  "vi-overstrike-delete",
  "vi-prev-word",
  "vi-put",
  "vi-redo",
  "vi-replace",
  "vi-rubout",
  "vi-search",
  "vi-search-again",
  "vi-set-mark",
  "vi-subst",
  "vi-tilde-expand",
  "vi-yank-arg",
  "vi-yank-to",
  "yank",
  "yank-last-arg",
  "yank-nth-arg",
  "yank-pop",
].sort();

// readline's default emacs-mode bindings for some of those commands
const EMACS_DEFAULTS: Record<string, string> = {
  "\\C-a": "beginning-of-line",
  "\\C-b": "backward-char",
  "\\C-d": "delete-char",
  "\\C-e": "end-of-line",
  "\\C-f": "forward-char",
  "\\C-g": "abort",
  "\\C-j": "accept-line",
  "\\C-k": "kill-line",
  "\\C-l": "clear-screen",
  "\\C-m": "accept-line",
  "\\C-n": "next-history",
  "\\C-p": "previous-history",
  "\\C-r": "reverse-search-history",
  "\\C-s": "forward-search-history",
  "\\C-t": "transpose-chars",
  "\\C-u": "unix-line-discard",
  "\\C-w": "unix-word-rubout",
  "\\C-y": "yank",
  "\\C-_": "undo",
  "\\eb": "backward-word",
  "\\ef": "forward-word",
  "\\ed": "kill-word",
  "\\ey": "yank-pop",
};
const VARIABLES: Record<string, string> = {
  "bell-style": "audible",
  "bind-tty-special-chars": "on",
  "blink-matching-paren": "off",
  "colored-completion-prefix": "off",
  "colored-stats": "off",
  "completion-ignore-case": "off",
  "completion-query-items": "100",
  "convert-meta": "off",
  "disable-completion": "off",
  "echo-control-characters": "on",
  "editing-mode": "emacs",
  "enable-bracketed-paste": "on",
  "expand-tilde": "off",
  "history-preserve-point": "off",
  "horizontal-scroll-mode": "off",
  "input-meta": "on",
  "mark-directories": "on",
  "mark-symlinked-directories": "off",
  "match-hidden-files": "on",
  "meta-flag": "on",
  "output-meta": "on",
  "page-completions": "on",
  "show-all-if-ambiguous": "off",
  "show-all-if-unmodified": "off",
  "visible-stats": "off",
};

interface Maps {
  fns: Record<string, Record<string, string>>;
  cmds: Record<string, Record<string, string>>;
  vars: Record<string, string>;
}

function load(sh: Shell): Maps {
  const m = sh.builtinState.get("bind") as Maps | undefined;
  return m ?? { fns: { emacs: { ...EMACS_DEFAULTS }, vi: {} }, cmds: { emacs: {}, vi: {} }, vars: { ...VARIABLES } };
}

/** `"keyseq": rest` -> [keyseq, rest] (keyseq kept in its escaped spelling). */
function splitBinding(s: string): [string, string] | null {
  const m = /^\s*"((?:\\.|[^"\\])*)"\s*:\s*(.*)$/.exec(s) ?? /^\s*([^:\s]+)\s*:\s*(.*)$/.exec(s);
  return m ? [m[1], m[2].trim()] : null;
}

const unquote = (s: string) => (/^"(.*)"$/s.test(s) || /^'(.*)'$/s.test(s) ? s.slice(1, -1) : s);

export async function bind(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const m = load(sh);
  const st = { fns: { ...m.fns }, cmds: { ...m.cmds }, vars: { ...m.vars } };
  let keymap = m.vars["editing-mode"] === "vi" ? "vi" : "emacs";
  let status = 0;
  const args = argv.slice(1);
  const outputs: (() => Promise<void>)[] = [];
  const boundTo = (fn: string) =>
    Object.entries(st.fns[keymap] ?? {})
      .filter(([, f]) => f === fn)
      .map(([k]) => k);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("-") || a === "-") {
      const b = splitBinding(a);
      if (!b) {
        await berr(sh, fds, "bind", `${a}: invalid key binding`);
        status = 1;
        continue;
      }
      if (b[0].startsWith("set ")) continue;
      st.fns[keymap] = { ...st.fns[keymap], [b[0]]: b[1] };
      continue;
    }
    const flag = a.slice(1);
    const needArg = (name: string) => {
      const v = args[++i];
      if (v === undefined) throw new BindUsage(`-${name}: option requires an argument`);
      return v;
    };
    try {
      for (let k = 0; k < flag.length; k++) {
        const c = flag[k];
        switch (c) {
          case "m": {
            const km = needArg("m");
            if (!/^(emacs|emacs-standard|emacs-meta|emacs-ctlx|vi|vi-move|vi-command|vi-insert)$/.test(km)) {
              await berr(sh, fds, "bind", `\`${km}': invalid keymap name`);
              return 1;
            }
            keymap = km.startsWith("vi") ? "vi" : "emacs";
            break;
          }
          case "l":
            outputs.push(() => out(fds, FUNCTIONS.map((f) => f + "\n").join("")));
            break;
          case "p":
          case "P":
            outputs.push(async () => {
              let s = "";
              for (const f of FUNCTIONS) {
                const keys = boundTo(f);
                if (c === "p") s += keys.length ? keys.map((k) => `"${k}": ${f}\n`).join("") : `# ${f} (not bound)\n`;
                else s += keys.length ? `${f} can be found on ${keys.map((k) => `"${k}"`).join(", ")}.\n` : `${f} is not bound to any keys\n`;
              }
              await out(fds, s);
            });
            break;
          case "v":
          case "V":
            outputs.push(() =>
              out(
                fds,
                Object.entries(st.vars)
                  .map(([k, v]) => (c === "v" ? `set ${k} ${v}\n` : `${k} is set to \`${v}'\n`))
                  .join(""),
              ),
            );
            break;
          case "s":
          case "S":
            break; // no macros are ever defined
          case "X":
            outputs.push(() =>
              out(
                fds,
                Object.entries(st.cmds[keymap] ?? {})
                  .map(([k, v]) => `"${k}": "${v.replace(/["\\]/g, "\\$&")}"\n`)
                  .join(""),
              ),
            );
            break;
          case "q":
          case "u": {
            const fn = needArg(c);
            if (!FUNCTIONS.includes(fn)) {
              await berr(sh, fds, "bind", `\`${fn}': unknown function name`);
              status = 1;
              break;
            }
            if (c === "u") {
              st.fns[keymap] = Object.fromEntries(Object.entries(st.fns[keymap]).filter(([, f]) => f !== fn));
              break;
            }
            const keys = boundTo(fn);
            if (!keys.length) {
              await out(fds, `${fn} is not bound to any keys.\n`);
              status = 1;
            } else await out(fds, `${fn} can be invoked via ${keys.map((k) => `"${k}"`).join(", ")}.\n`);
            break;
          }
          case "r": {
            const key = unquote(needArg("r"));
            st.fns[keymap] = Object.fromEntries(Object.entries(st.fns[keymap]).filter(([k]) => k !== key));
            st.cmds[keymap] = Object.fromEntries(Object.entries(st.cmds[keymap]).filter(([k]) => k !== key));
            break;
          }
          case "x": {
            const b = splitBinding(needArg("x"));
            if (!b) {
              await berr(sh, fds, "bind", "-x: missing colon separator");
              status = 1;
              break;
            }
            st.cmds[keymap] = { ...st.cmds[keymap], [b[0]]: unquote(b[1]) };
            break;
          }
          case "f": {
            const file = needArg("f");
            await berr(sh, fds, "bind", `${file}: cannot read: No such file or directory`);
            status = 1;
            break;
          }
          default:
            throw new BindUsage(`-${c}: invalid option`);
        }
      }
    } catch (e) {
      if (!(e instanceof BindUsage)) throw e;
      await berr(sh, fds, "bind", e.message);
      await sh.err(
        fds,
        "bind: usage: bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]",
      );
      return 2;
    }
  }
  sh.builtinState.set("bind", st);
  for (const o of outputs) await o();
  return status;
}

class BindUsage extends Error {}
