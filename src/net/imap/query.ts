import { ImapError } from "./errors";

/**
 * Checks a model-written IMAP SEARCH query before it is put on the command line: it must stay
 * one command. Line breaks would start a new command, and a `{n}` literal would make the
 * server wait for bytes the client never meant to send, so both are refused, as are
 * unbalanced quotes and parentheses (the server would answer BAD, less clearly).
 */
export function checkSearchQuery(query: string): string {
  const q = query.trim();
  const bad = (why: string) => new ImapError("query", `The query is not valid IMAP SEARCH syntax: ${why}. Example: FROM alice@example.com SINCE 1-Jan-2024`);
  if (!q) throw bad("it is empty");
  if (/[\r\n\0]/.test(q)) throw bad("it contains a line break or NUL; give the whole query on one line");
  if (/[^\x20-\x7e\t]/.test(q))
    throw bad("it contains non-ASCII characters, which this client does not send (no CHARSET support); search with an ASCII part of the text");
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < q.length; i++) {
    const c = q[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === "(") depth++;
    else if (c === ")" && --depth < 0) throw bad("a ')' has no matching '('");
    else if (c === "{") throw bad("'{' (an IMAP literal) is not allowed outside quotes; put the text in double quotes");
  }
  if (quoted) throw bad("a double quote is not closed");
  if (depth > 0) throw bad("a '(' is not closed");
  return q;
}

/** An IMAP astring for a folder name, quoted; ASCII only (modified UTF-7 names are not supported). */
export function quoteFolder(folder: string): string {
  if (!folder || /[\r\n\0]/.test(folder) || /[^\x20-\x7e]/.test(folder)) {
    throw new ImapError("folder", `The folder name '${folder.slice(0, 100)}' is not usable: give an ASCII folder name such as INBOX or Archive.`);
  }
  return quoted(folder);
}

/** An IMAP quoted string: backslash and double quote escaped. The caller has excluded CR, LF and NUL. */
export function quoted(s: string): string {
  return `"${s.replace(/[\\"]/g, "\\$&")}"`;
}
