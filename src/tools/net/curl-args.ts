/** curl's command line, as far as Toolshed's curl goes; anything else is refused by name. */
export interface CurlArgs {
  urls: string[];
  outputs: (string | { remote: true })[];
  silent: boolean;
  showError: boolean;
  fail: "no" | "fail" | "with-body";
  location: boolean;
  head: boolean;
  include: boolean;
  method?: string;
  headers: [string, string][];
  /** -d/--data-*: pieces joined with `&`, each already in its final form (or a file to read). */
  data: { kind: "ascii" | "raw" | "binary" | "urlencode"; value: string }[];
  form: string[];
  user?: string;
  userAgent?: string;
  referer?: string;
  writeOut?: string;
  maxTimeS?: number;
  maxRedirs?: number;
}

type Setter = (a: CurlArgs, v: string) => string | void;

/** Long name → [takes a value, how it changes the arguments]. */
const OPTIONS: Record<string, [boolean, Setter]> = {
  silent: [false, (a) => void (a.silent = true)],
  "show-error": [false, (a) => void (a.showError = true)],
  fail: [false, (a) => void (a.fail = "fail")],
  "fail-with-body": [false, (a) => void (a.fail = "with-body")],
  location: [false, (a) => void (a.location = true)],
  head: [false, (a) => void (a.head = true)],
  include: [false, (a) => void (a.include = true)],
  insecure: [false, () => undefined],
  compressed: [false, () => undefined],
  output: [true, (a, v) => void a.outputs.push(v)],
  "remote-name": [false, (a) => void a.outputs.push({ remote: true })],
  request: [true, (a, v) => void (a.method = v)],
  header: [
    true,
    (a, v) => {
      const i = v.indexOf(":");
      if (i <= 0) return `header '${v}' has no 'Name: value' form`;
      a.headers.push([v.slice(0, i).trim(), v.slice(i + 1).trim()]);
    },
  ],
  data: [true, (a, v) => void a.data.push({ kind: "ascii", value: v })],
  "data-ascii": [true, (a, v) => void a.data.push({ kind: "ascii", value: v })],
  "data-raw": [true, (a, v) => void a.data.push({ kind: "raw", value: v })],
  "data-binary": [true, (a, v) => void a.data.push({ kind: "binary", value: v })],
  "data-urlencode": [true, (a, v) => void a.data.push({ kind: "urlencode", value: v })],
  form: [true, (a, v) => void a.form.push(v)],
  user: [true, (a, v) => void (a.user = v)],
  "user-agent": [true, (a, v) => void (a.userAgent = v)],
  referer: [true, (a, v) => void (a.referer = v)],
  "write-out": [true, (a, v) => void (a.writeOut = v)],
  "max-time": [
    true,
    (a, v) => {
      const s = Number(v);
      if (!Number.isFinite(s) || s < 0) return `expected a number of seconds for --max-time, got '${v}'`;
      a.maxTimeS = s;
    },
  ],
  "max-redirs": [
    true,
    (a, v) => {
      const n = Number(v);
      if (!Number.isInteger(n)) return `expected a whole number for --max-redirs, got '${v}'`;
      a.maxRedirs = n;
    },
  ],
  url: [true, (a, v) => void a.urls.push(v)],
};

const SHORT: Record<string, string> = {
  s: "silent",
  S: "show-error",
  f: "fail",
  L: "location",
  I: "head",
  i: "include",
  k: "insecure",
  o: "output",
  O: "remote-name",
  X: "request",
  H: "header",
  d: "data",
  F: "form",
  u: "user",
  A: "user-agent",
  e: "referer",
  w: "write-out",
  m: "max-time",
};

/** Parses argv (without argv[0]); a string is the message for `curl: option X: ...` (exit 2). */
export function parseCurlArgs(argv: string[]): CurlArgs | string {
  const a: CurlArgs = {
    urls: [],
    outputs: [],
    silent: false,
    showError: false,
    fail: "no",
    location: false,
    head: false,
    include: false,
    headers: [],
    data: [],
    form: [],
  };
  const apply = (name: string, shown: string, value: () => string | undefined): string | void => {
    const opt = OPTIONS[name];
    if (!opt) return `option ${shown}: is unknown`;
    if (!opt[0]) return opt[1](a, "");
    const v = value();
    if (v === undefined) return `option ${shown}: requires parameter`;
    const err = opt[1](a, v);
    if (err) return `option ${shown}: ${err}`;
  };
  let onlyUrls = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyUrls || arg === "-" || !arg.startsWith("-")) {
      a.urls.push(arg);
      continue;
    }
    if (arg === "--") {
      onlyUrls = true;
      continue;
    }
    let err: string | void = undefined;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      err = apply(name, `--${name}`, () => (eq > 0 ? arg.slice(eq + 1) : argv[++i]));
    } else {
      // Short options combine (-sSL) and take their value attached or next (-oFILE, -o FILE).
      for (let j = 1; j < arg.length && !err; j++) {
        const long = SHORT[arg[j]!];
        if (!long) {
          err = `option -${arg[j]}: is unknown`;
          break;
        }
        if (OPTIONS[long]![0]) {
          const rest = arg.slice(j + 1);
          err = apply(long, `-${arg[j]}`, () => (rest ? rest : argv[++i]));
          break;
        }
        err = apply(long, `-${arg[j]}`, () => undefined);
      }
    }
    if (err) return err;
  }
  return a;
}
