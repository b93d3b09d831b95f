// util.format as Node does it (the npm util package quotes strings after a non-string first
// argument and knows no BigInt): %s %d %i %f %j %o %O %c %%, the rest joined with spaces,
// strings as they are and everything else through util.inspect.
import util from "util";

const baseInspect = util.inspect;

export function inspect(v, opts) {
  if (typeof v === "bigint") return `${v}n`;
  if (Object.is(v, -0)) return "-0";
  return baseInspect(v, opts);
}
Object.assign(inspect, baseInspect);

const num = (v) => (typeof v === "bigint" ? `${v}n` : typeof v === "symbol" ? "NaN" : Object.is(Number(v), -0) ? "-0" : String(Number(v)));

export function format(...args) {
  const first = args[0];
  let out = "";
  let i = 1;
  if (typeof first === "string") {
    let last = 0;
    for (let p = 0; p < first.length - 1; p++) {
      if (first[p] !== "%") continue;
      const c = first[p + 1];
      if (c === "%") {
        out += first.slice(last, p) + "%";
        last = p + 2;
        p++;
        continue;
      }
      if (i >= args.length || !"sdifjoOc".includes(c)) continue;
      const a = args[i++];
      let s;
      switch (c) {
        case "s":
          s =
            typeof a === "string"
              ? a
              : typeof a === "bigint"
                ? `${a}n`
                : typeof a === "number"
                  ? num(a)
                  : a !== null && typeof a === "object"
                    ? inspect(a, { depth: 0 })
                    : String(a);
          break;
        case "d":
          s = a !== null && typeof a === "object" ? num(Number(a)) : num(a);
          break;
        case "i":
          s = typeof a === "bigint" ? `${a}n` : typeof a === "symbol" ? "NaN" : String(parseInt(a));
          break;
        case "f":
          s = typeof a === "symbol" ? "NaN" : String(parseFloat(a));
          break;
        case "j":
          try {
            s = JSON.stringify(a);
          } catch {
            s = "[Circular]";
          }
          break;
        case "o":
          s = inspect(a, { showHidden: true, depth: 4 });
          break;
        case "O":
          s = inspect(a);
          break;
        case "c":
          s = "";
          break;
      }
      out += first.slice(last, p) + s;
      last = p + 2;
      p++;
    }
    out += first.slice(last);
  } else i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    out += (out || i > 0 ? " " : "") + (typeof a === "string" ? a : inspect(a));
  }
  return out;
}
