import diff3Merge from "diff3";

const LINES = /^.*(\r?\n|$)/gm;

/**
 * A three-way file merge with git's conflict markers (`<<<<<<< HEAD` ... `>>>>>>> branch`):
 * diff3 regions, then trimmed as git's "zealous" level does (lines equal on both sides at a
 * conflict's start or end are moved out of it; a conflict whose sides agree is no conflict).
 */
export function mergeText(base: string, ours: string, theirs: string, ourName: string, theirName: string): { clean: boolean; text: string } {
  const split = (s: string) => (s.match(LINES) ?? []).filter((l) => l !== "");
  const blocks = diff3Merge(split(ours), split(base), split(theirs));
  let text = "";
  let clean = true;
  const side = (lines: string[]) => {
    const t = lines.join("");
    return t && !t.endsWith("\n") ? `${t}\n` : t;
  };
  for (const b of blocks) {
    if (b.ok) {
      text += b.ok.join("");
      continue;
    }
    let a = [...b.conflict!.a];
    let c = [...b.conflict!.b];
    let head = "";
    while (a.length && c.length && a[0] === c[0]) {
      head += a.shift();
      c.shift();
    }
    let tail = "";
    while (a.length && c.length && a[a.length - 1] === c[c.length - 1]) {
      tail = a.pop()! + tail;
      c.pop();
    }
    text += head;
    if (!a.length && !c.length) {
      text += tail;
      continue;
    }
    clean = false;
    text += `<<<<<<< ${ourName}\n${side(a)}=======\n${side(c)}>>>>>>> ${theirName}\n${tail}`;
    a = [];
    c = [];
  }
  return { clean, text };
}
