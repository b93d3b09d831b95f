import { GitExit } from "./repo";

/**
 * A small option reader for one subcommand: known flags (with or without a value), `--`,
 * bundled short flags, `--opt=value`, `-n5`. Anything else starting with `-` is refused by
 * name (exit 129, as git does for an unknown option).
 */
export interface Spec {
  /** Flags without a value, by every spelling (`-a`, `--all`). */
  flags?: Record<string, string>;
  /** Options taking a value. */
  values?: Record<string, string>;
  /** Options with an optional `=value` (`--stat`, `--porcelain=v1`). */
  optional?: Record<string, string>;
}

export interface Parsed {
  opts: Map<string, string | true>;
  /** Every value of a repeatable option, in order (`-m a -m b`). */
  all: Map<string, string[]>;
  args: string[];
  /** Words after `--`. */
  paths: string[];
  dashdash: boolean;
}

export function parseArgs(cmd: string, argv: string[], spec: Spec): Parsed {
  const opts = new Map<string, string | true>();
  const all = new Map<string, string[]>();
  const args: string[] = [];
  const set = (k: string, v: string | true) => {
    opts.set(k, v);
    if (typeof v === "string") all.set(k, [...(all.get(k) ?? []), v]);
  };
  const refuse = (o: string): never => {
    throw new GitExit(
      129,
      `error: unknown option '${o.replace(/^-+/, "")}'\nusage: git ${cmd}: this option is not supported by Toolshed's git; see 'git ${cmd} -h'`,
      true,
    );
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") return { opts, all, args, paths: argv.slice(i + 1), dashdash: true };
    if (!a.startsWith("-") || a === "-") {
      args.push(a);
      continue;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq < 0 ? a : a.slice(0, eq);
      if (spec.flags?.[name] && eq < 0) set(spec.flags[name]!, true);
      else if (spec.optional?.[name]) set(spec.optional[name]!, eq < 0 ? true : a.slice(eq + 1));
      else if (spec.values?.[name]) {
        if (eq >= 0) set(spec.values[name]!, a.slice(eq + 1));
        else if (i + 1 < argv.length) set(spec.values[name]!, argv[++i]!);
        else throw new GitExit(129, `error: option '${name.slice(2)}' requires a value`, true);
      } else refuse(name);
      continue;
    }
    // -abc, -n5, -m msg, -U3
    for (let j = 1; j < a.length; j++) {
      const f = `-${a[j]}`;
      if (spec.values?.[f]) {
        const rest = a.slice(j + 1);
        if (rest) set(spec.values[f]!, rest);
        else if (i + 1 < argv.length) set(spec.values[f]!, argv[++i]!);
        else throw new GitExit(129, `error: switch '${a[j]}' requires a value`, true);
        break;
      }
      if (spec.optional?.[f]) {
        const rest = a.slice(j + 1);
        set(spec.optional[f]!, rest || true);
        break;
      }
      if (spec.flags?.[f]) set(spec.flags[f]!, true);
      else if (/^-\d+$/.test(a) && spec.values?.["-n"]) {
        set(spec.values["-n"]!, a.slice(1));
        break;
      } else refuse(f);
    }
  }
  return { opts, all, args, paths: [], dashdash: false };
}
