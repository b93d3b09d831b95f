/**
 * chmod's mode language, GNU style: octal (`755`, `0644`) or symbolic clauses separated by commas
 * (`u+x`, `go-w`, `a=r`, `+X`, `u=g`, `o=`). Pure functions, so the table test can run them alone.
 */

const WHO: Record<string, number> = { u: 0o4700, g: 0o2070, o: 0o1007, a: 0o7777 };
const CLAUSE = /^([ugoa]*)((?:[-+=](?:[rwxXst]*|[ugo]))+)$/;

/** Bits of `perms` (rwxXst) for every class in `who`, or copied from class `from`. */
function permBits(perms: string, who: number, current: number, isDir: boolean): number {
  let bits = 0;
  for (const p of perms) {
    if (p === "r") bits |= 0o444;
    else if (p === "w") bits |= 0o222;
    else if (p === "x") bits |= 0o111;
    else if (p === "X" && (isDir || current & 0o111)) bits |= 0o111;
    else if (p === "s") bits |= 0o6000;
    else if (p === "t") bits |= 0o1000;
  }
  return bits & who;
}

function copyBits(from: string, current: number): number {
  const shift = from === "u" ? 6 : from === "g" ? 3 : 0;
  const three = (current >> shift) & 7;
  return (three << 6) | (three << 3) | three;
}

/**
 * The new mode, or null when `spec` is not a valid mode. `umask` limits clauses without a
 * `who` (`+x` adds x only where the umask allows, as GNU chmod does).
 */
export function applyMode(spec: string, current: number, isDir: boolean, umask: number): number | null {
  if (/^[0-7]{1,4}$/.test(spec)) {
    const n = parseInt(spec, 8);
    // GNU keeps a directory's set-id bits unless they are given with 5 or more digits.
    return isDir && spec.length < 4 ? n | (current & 0o6000) : n;
  }
  let mode = current & 0o7777;
  for (const clause of spec.split(",")) {
    const m = CLAUSE.exec(clause);
    if (!m) return null;
    const whoText = m[1]!;
    const who = whoText === "" ? 0o7777 : [...whoText].reduce((w, c) => w | WHO[c]!, 0);
    const mask = whoText === "" ? ~umask & 0o7777 : 0o7777;
    for (const op of m[2]!.match(/[-+=][^-+=]*/g)!) {
      const perms = op.slice(1);
      const bits = /^[ugo]$/.test(perms) ? copyBits(perms, mode) & who : permBits(perms, who, mode, isDir);
      if (op[0] === "+") mode |= bits & mask;
      else if (op[0] === "-") mode &= ~(bits & mask);
      else {
        // `=` clears the classes named (all, when none is), keeping a directory's set-id bits.
        const cleared = who & (isDir ? ~0o6000 : 0o7777);
        mode = (mode & ~cleared) | (bits & mask);
      }
    }
  }
  return mode;
}

/** `rwxr-xr-x` with s/S and t/T where the special bits are set, as ls -l shows it. */
export function modeString(mode: number): string {
  const rwx = (shift: number, special: number, ch: string) => {
    const r = mode & (4 << shift) ? "r" : "-";
    const w = mode & (2 << shift) ? "w" : "-";
    const x = mode & (1 << shift);
    const e = mode & special ? (x ? ch : ch.toUpperCase()) : x ? "x" : "-";
    return r + w + e;
  };
  return rwx(6, 0o4000, "s") + rwx(3, 0o2000, "s") + rwx(0, 0o1000, "t");
}
