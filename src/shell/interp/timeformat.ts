// What the `time` keyword prints, following $TIMEFORMAT as bash does. User and system CPU time
// are not measured here (the shell runs inside one isolate): they read as 0.

const DEFAULT_FORMAT = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS";

/** One time in seconds with `digits` decimals (0-3), in bash's long form (`1m2.345s`) when `long`. */
function formatSeconds(secs: number, digits: number, long: boolean): string {
  const scale = 10 ** digits;
  const whole = Math.floor(secs * scale) / scale;
  if (!long) return whole.toFixed(digits);
  const minutes = Math.floor(whole / 60);
  return `${minutes}m${(whole - minutes * 60).toFixed(digits)}s`;
}

/**
 * The report for a pipeline that took `realSecs`, or null when TIMEFORMAT is set and empty
 * (bash then prints nothing). An unset TIMEFORMAT means bash's default format.
 */
export function timeReport(format: string | undefined, realSecs: number): string | null {
  const f = format ?? DEFAULT_FORMAT;
  if (f === "") return null;
  let out = "";
  for (let i = 0; i < f.length; i++) {
    const c = f[i]!;
    if (c !== "%") {
      out += c;
      continue;
    }
    const m = /^%(\d)?(l)?([RUSP%])/.exec(f.slice(i));
    if (!m) {
      out += c;
      continue;
    }
    i += m[0].length - 1;
    const kind = m[3]!;
    if (kind === "%") out += "%";
    else if (kind === "P")
      out += "0.00"; // no CPU time is measured
    else {
      const secs = kind === "R" ? realSecs : 0;
      out += formatSeconds(secs, Math.min(3, Number(m[1] ?? 3)), m[2] === "l");
    }
  }
  return `${out}\n`;
}
