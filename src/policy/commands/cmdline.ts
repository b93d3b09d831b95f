/**
 * Best-effort reading of a command line handed over as one string (watch, su -c, env -S,
 * eval, and `sh -c` reached through another wrapper). The shell's own parser stays
 * authoritative for strings it runs itself; this only keeps wrapped strings from hiding.
 *
 * Quotes group words and are removed; unquoted `; & | ( )`, newlines, backticks and `$(`
 * separate commands; `#` starts a comment; heredoc bodies and here-strings are data, not
 * commands. A redirection target becomes its own pseudo-command `[REDIRECT, target]`, so
 * the path rules (.env, /proc/*\/environ, /run/secrets, disks) still see it.
 */

export const REDIRECT = "<redirect>";

type Pending = "file" | "heredoc" | "drop" | null;

export function splitCommandLine(s: string): string[][] {
  const cmds: string[][] = [];
  let words: string[] = [];
  let targets: string[] = [];
  let word: string | null = null;
  let pending: Pending = null;
  const heredocs: Array<{ delim: string; stripTabs: boolean }> = [];
  let stripTabs = false;

  const endWord = () => {
    if (word === null) return;
    if (pending === "file") targets.push(word);
    else if (pending === "heredoc") heredocs.push({ delim: word, stripTabs });
    else if (pending === null) words.push(word);
    pending = null;
    word = null;
  };
  const endCmd = () => {
    endWord();
    if (words.length > 0) cmds.push(words);
    for (const t of targets) cmds.push([REDIRECT, t]);
    words = [];
    targets = [];
  };
  // Skips heredoc bodies that start after the newline at index i; returns the new index.
  const skipHeredocs = (i: number): number => {
    let pos = i + 1;
    for (const h of heredocs.splice(0)) {
      while (pos < s.length) {
        const nl = s.indexOf("\n", pos);
        const end = nl < 0 ? s.length : nl;
        const line = h.stripTabs ? s.slice(pos, end).replace(/^\t+/, "") : s.slice(pos, end);
        pos = end + 1;
        if (line === h.delim) break;
      }
    }
    return pos - 1;
  };

  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === "'" || ch === '"') {
      const close = s.indexOf(ch, i + 1);
      const end = close < 0 ? s.length : close;
      word = (word ?? "") + s.slice(i + 1, end);
      i = end;
    } else if (ch === "\\" && i + 1 < s.length) {
      word = (word ?? "") + s[++i];
    } else if (ch === "#" && word === null) {
      const nl = s.indexOf("\n", i);
      i = (nl < 0 ? s.length : nl) - 1;
    } else if (ch === "\n") {
      endCmd();
      i = skipHeredocs(i);
    } else if (/\s/.test(ch)) {
      endWord();
    } else if (ch === "<" || ch === ">" || (ch === "&" && s[i + 1] === ">")) {
      // `2>`: the digits name a file descriptor, not a word of the command.
      if (word !== null && pending === null && /^\d+$/.test(word)) word = null;
      else endWord();
      if (s.startsWith("<<<", i)) {
        pending = "drop";
        i += 2;
      } else if (s.startsWith("<<", i)) {
        stripTabs = s[i + 2] === "-";
        pending = "heredoc";
        i += stripTabs ? 2 : 1;
      } else {
        if (ch === "&") i++;
        while (s[i + 1] === ">" || s[i + 1] === "|") i++;
        // `>&2`, `<&0`: duplicating a descriptor names no file.
        if (s[i + 1] === "&") {
          i++;
          pending = "drop";
        } else pending = "file";
      }
    } else if (";&|()`".includes(ch) || (ch === "$" && s[i + 1] === "(")) {
      endCmd();
      if (ch === "$") i++;
    } else {
      word = (word ?? "") + ch;
    }
  }
  endCmd();
  return cmds;
}
