import * as git from "isomorphic-git";
import { parseArgs, type Parsed } from "../args";
import { changesBetween, type Side } from "../changes";
import { countLines, filePatch, statText, type FileChange } from "../diff";
import { abbrev, bodyOf, gitDate, isoDate, quotePath, relativeDate, strictIsoDate, subjectOf } from "../format";
import { GIT_MAX_LOG_COMMITS } from "../limits";
import { conflictStages } from "./merge-state";
import { fatal, headOid, isRev, matches, repoPath, resolveRev, unsupported, type Repo } from "../repo";

type CommitObject = Awaited<ReturnType<typeof git.readCommit>>;

/** The output shapes shared by diff, log and show. */
interface DiffFormat {
  patch: boolean;
  stat: boolean;
  shortstat: boolean;
  numstat: boolean;
  nameOnly: boolean;
  nameStatus: boolean;
  context: number;
  renames: boolean;
}

const DIFF_FLAGS = {
  "-p": "patch",
  "--patch": "patch",
  "-u": "patch",
  "--stat": "stat",
  "--shortstat": "shortstat",
  "--numstat": "numstat",
  "--name-only": "nameonly",
  "--name-status": "namestatus",
  "--no-renames": "norenames",
  "-M": "renames",
  "--find-renames": "renames",
  "--no-color": "nocolor",
  "--no-ext-diff": "noext",
  "-s": "nopatch",
  "--no-patch": "nopatch",
  "--summary": "summary",
  "--patch-with-stat": "patchstat",
} as const;

function diffFormat(p: Parsed, defaultPatch: boolean): DiffFormat {
  const color = p.opts.get("color");
  if (color !== undefined && color !== "never" && color !== "auto") unsupported("colors are not supported here; the output is plain text (drop --color)");
  const context = Number(p.opts.get("unified") ?? 3);
  if (!Number.isInteger(context) || context < 0) fatal(`invalid -U value: ${p.opts.get("unified")}`);
  const any = ["stat", "shortstat", "numstat", "nameonly", "namestatus"].some((k) => p.opts.has(k));
  const patchstat = p.opts.has("patchstat");
  return {
    patch: !p.opts.has("nopatch") && (p.opts.has("patch") || patchstat || p.opts.has("unified") || (defaultPatch && !any)),
    stat: p.opts.has("stat") || patchstat,
    shortstat: p.opts.has("shortstat"),
    numstat: p.opts.has("numstat"),
    nameOnly: p.opts.has("nameonly"),
    nameStatus: p.opts.has("namestatus"),
    context,
    renames: !p.opts.has("norenames"),
  };
}

const statusLetter = (ch: FileChange) => (ch.renamed ? "R100" : !ch.old ? "A" : !ch.neu ? "D" : "M");

/**
 * Printing a file's contents (a patch, `show REV:path`) asks the workspace's read rule for the
 * path it has in the work tree: a `.env` that came with a clone is as unreadable through git
 * as through cat.
 */
function checkContent(repo: Repo, path: string): void {
  repo.ctx.fs.rules.checkRead(`${repo.dir}/${path}`);
}

/** The diff body for a list of changes, in the order git prints its parts. */
function renderChanges(repo: Repo, changes: FileChange[], f: DiffFormat): string {
  let out = "";
  const rows = f.stat || f.shortstat || f.numstat ? changes.map(countLines) : [];
  if (f.numstat) for (const r of rows) out += r.binary ? `-\t-\t${r.name}\n` : `${r.added}\t${r.deleted}\t${quotePath(r.name)}\n`;
  if (f.nameOnly) for (const ch of changes) out += `${quotePath((ch.neu ?? ch.old)!.path)}\n`;
  if (f.nameStatus)
    for (const ch of changes)
      out += ch.renamed ? `R100\t${quotePath(ch.old!.path)}\t${quotePath(ch.neu!.path)}\n` : `${statusLetter(ch)}\t${quotePath((ch.neu ?? ch.old)!.path)}\n`;
  if (f.stat) out += statText(rows);
  else if (f.shortstat && rows.length) out += statText(rows).split("\n").slice(-2).join("\n");
  if (f.patch) {
    if (f.stat && changes.length) out += "\n";
    for (const ch of changes) {
      if (ch.old) checkContent(repo, ch.old.path);
      if (ch.neu) checkContent(repo, ch.neu.path);
      out += filePatch(ch, { context: f.context }).text;
    }
  }
  return out;
}

const treeOf = async (repo: Repo, oid: string) => (await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).commit.tree;

const DIFF_SPEC = {
  flags: { ...DIFF_FLAGS, "--cached": "cached", "--staged": "cached", "--quiet": "quiet", "--exit-code": "exitcode" },
  values: { "-U": "unified", "--unified": "unified" },
  optional: { "--color": "color" },
};

export async function diff(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("diff", argv, DIFF_SPEC);
  const f = diffFormat(p, true);
  const revs: string[] = [];
  let paths = [...p.paths];
  for (const [i, a] of p.args.entries()) {
    if (!p.dashdash && paths.length === 0 && !(await isRev(repo, a.split("..")[0] || "HEAD"))) {
      paths = p.args.slice(i);
      break;
    }
    if (a.includes("...")) unsupported("git diff A...B is not supported here; use 'git diff $(git merge-base A B) B'");
    if (a.includes("..")) revs.push(...a.split("..").map((r) => r || "HEAD"));
    else revs.push(a);
  }
  const specs = paths.map((w) => repoPath(repo, w));
  let from: Side;
  let to: Side;
  const cached = p.opts.has("cached");
  if (revs.length === 0) {
    if (cached) {
      const head = await headOid(repo);
      from = { kind: "tree", oid: head ? await treeOf(repo, head) : undefined };
      to = { kind: "index" };
    } else {
      from = { kind: "index" };
      to = { kind: "worktree" };
    }
  } else if (revs.length === 1) {
    from = { kind: "tree", oid: await treeOf(repo, await resolveRev(repo, revs[0]!)) };
    to = cached ? { kind: "index" } : { kind: "worktree" };
  } else if (revs.length === 2) {
    from = { kind: "tree", oid: await treeOf(repo, await resolveRev(repo, revs[0]!)) };
    to = { kind: "tree", oid: await treeOf(repo, await resolveRev(repo, revs[1]!)) };
  } else {
    return unsupported("git diff with more than two revisions (a combined diff) is not supported here");
  }
  let changes = await changesBetween(repo, from, to, specs, { renames: f.renames });
  // Unmerged paths during a conflicted merge: listed by name (the combined diff is not built).
  const unmerged = from.kind === "index" && to.kind === "worktree" ? (await conflictStages(repo)).filter((c) => matches(specs, c)) : [];
  if (unmerged.length) {
    changes = changes.filter((c) => !unmerged.includes((c.neu ?? c.old)!.path));
    // git 2.39 lists an unmerged path twice here (its two unmerged sides).
    if (f.nameOnly) repo.out([...new Set(unmerged)].map((u) => `${quotePath(u)}\n${quotePath(u)}\n`).join(""));
    else if (f.nameStatus) repo.out([...new Set(unmerged)].map((u) => `U\t${quotePath(u)}\n`).join(""));
  }
  if (!p.opts.has("quiet")) repo.out(renderChanges(repo, changes, f));
  return (p.opts.has("quiet") || p.opts.has("exitcode")) && changes.length ? 1 : 0;
}

/** A commit with what the pretty formats need. */
interface Shown {
  oid: string;
  c: CommitObject["commit"];
}

function formatPlaceholders(fmt: string, s: Shown, refs: Map<string, string[]>): string {
  const { c } = s;
  const now = Math.floor(Date.now() / 1000);
  const person = (who: typeof c.author, k: string): string | undefined => {
    switch (k) {
      case "n":
        return who.name;
      case "e":
        return who.email;
      case "d":
        return gitDate(who.timestamp, who.timezoneOffset);
      case "D":
        return new Date(who.timestamp * 1000).toUTCString().replace("GMT", tzOf(who.timezoneOffset));
      case "t":
        return String(who.timestamp);
      case "i":
        return isoDate(who.timestamp, who.timezoneOffset);
      case "I":
        return strictIsoDate(who.timestamp, who.timezoneOffset);
      case "r":
        return relativeDate(who.timestamp, now);
      case "s":
        return isoDate(who.timestamp, who.timezoneOffset).slice(0, 10);
    }
    return undefined;
  };
  const deco = refs.get(s.oid) ?? [];
  return fmt.replace(
    /%(H|h|T|t|P|p|s|b|B|n|%|d|D|f|([ac])([nedDtiIrs])|x([0-9a-fA-F]{2})|C\([a-z]+\)|C(?:red|green|blue|reset))/g,
    (m, k: string, role?: string, field?: string, hex?: string) => {
      if (role && field) return person(role === "a" ? c.author : c.committer, field) ?? m;
      if (hex) return String.fromCharCode(parseInt(hex, 16));
      switch (k) {
        case "H":
          return s.oid;
        case "h":
          return abbrev(s.oid);
        case "T":
          return c.tree;
        case "t":
          return abbrev(c.tree);
        case "P":
          return c.parent.join(" ");
        case "p":
          return c.parent.map((x) => abbrev(x)).join(" ");
        case "s":
          return subjectOf(c.message);
        case "f":
          return subjectOf(c.message)
            .replace(/[^A-Za-z0-9.]+/g, "-")
            .replace(/^-+|-+$/g, "");
        case "b":
          return bodyOf(c.message);
        case "B":
          return c.message;
        case "n":
          return "\n";
        case "%":
          return "%";
        case "d":
          return deco.length ? ` (${deco.join(", ")})` : "";
        case "D":
          return deco.join(", ");
      }
      return ""; // colors: plain text here
    },
  );
}

function tzOf(offset: number): string {
  const east = -offset;
  const a = Math.abs(east);
  return `${east < 0 ? "-" : "+"}${String(Math.floor(a / 60)).padStart(2, "0")}${String(a % 60).padStart(2, "0")}`;
}

function indent(message: string): string {
  const text = message.replace(/\n+$/, "");
  return (
    text
      .split("\n")
      .map((l) => (l ? `    ${l}` : ""))
      .join("\n") + "\n"
  );
}

/** One commit in a named pretty format (medium, oneline, short, full, fuller, raw) or a format string. */
function pretty(s: Shown, format: string, refs: Map<string, string[]>, decorate: boolean): { text: string; oneline: boolean; user: boolean; separator?: string } {
  if (format === "oneline-abbrev")
    return {
      text: `${abbrev(s.oid)}${decorate && refs.get(s.oid)?.length ? ` (${refs.get(s.oid)!.join(", ")})` : ""} ${subjectOf(s.c.message)}\n`,
      oneline: true,
      user: false,
    };
  const { c } = s;
  const dec = decorate && refs.get(s.oid)?.length ? ` (${refs.get(s.oid)!.join(", ")})` : "";
  const merge = c.parent.length > 1 ? `Merge: ${c.parent.map((x) => abbrev(x)).join(" ")}\n` : "";
  const who = (w: typeof c.author) => `${w.name} <${w.email}>`;
  switch (format) {
    case "oneline":
      return { text: `${s.oid}${dec} ${subjectOf(c.message)}\n`, oneline: true, user: false };
    case "medium":
      return {
        text: `commit ${s.oid}${dec}\n${merge}Author: ${who(c.author)}\nDate:   ${gitDate(c.author.timestamp, c.author.timezoneOffset)}\n\n${indent(c.message)}`,
        oneline: false,
        user: false,
      };
    case "short":
      return { text: `commit ${s.oid}${dec}\n${merge}Author: ${who(c.author)}\n\n${indent(subjectOf(c.message))}`, oneline: false, user: false };
    case "full":
      return { text: `commit ${s.oid}${dec}\n${merge}Author: ${who(c.author)}\nCommit: ${who(c.committer)}\n\n${indent(c.message)}`, oneline: false, user: false };
    case "fuller":
      return {
        text: `commit ${s.oid}${dec}\n${merge}Author:     ${who(c.author)}\nAuthorDate: ${gitDate(c.author.timestamp, c.author.timezoneOffset)}\nCommit:     ${who(c.committer)}\nCommitDate: ${gitDate(c.committer.timestamp, c.committer.timezoneOffset)}\n\n${indent(c.message)}`,
        oneline: false,
        user: false,
      };
  }
  const m = /^(format|tformat):([\s\S]*)$/.exec(format);
  if (m) return { text: formatPlaceholders(m[2]!, s, refs) + (m[1] === "tformat" ? "\n" : ""), oneline: false, user: true, separator: m[1] === "format" ? "\n" : "" };
  if (format.includes("%")) return { text: `${formatPlaceholders(format, s, refs)}\n`, oneline: false, user: true };
  return unsupported(`invalid --pretty format: ${format}; use oneline, short, medium, full, fuller or format:<string>`);
}

/** Branch and tag names by commit, for %d and --decorate: `HEAD -> master, tag: v1`. */
async function decorations(repo: Repo): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const o = { fs: repo.fs, gitdir: repo.gitdir };
  const push = (oid: string, name: string) => out.set(oid, [...(out.get(oid) ?? []), name]);
  const head = await headOid(repo);
  const branch = await git.currentBranch({ ...o, fullname: false }).catch(() => undefined);
  if (head && !branch) push(head, "HEAD");
  for (const b of await git.listBranches(o)) {
    const oid = await git.resolveRef({ ...o, ref: `refs/heads/${b}` });
    push(oid, b === branch ? `HEAD -> ${b}` : b);
  }
  for (const r of await git.listRemotes(o)) {
    for (const b of await git.listBranches({ ...o, remote: r.remote })) {
      if (b === "HEAD") continue;
      push(await git.resolveRef({ ...o, ref: `refs/remotes/${r.remote}/${b}` }), `${r.remote}/${b}`);
    }
  }
  for (const t of await git.listTags(o)) {
    let oid = await git.resolveRef({ ...o, ref: `refs/tags/${t}` });
    const obj = await git.readObject({ ...o, oid });
    if (obj.type === "tag") oid = (obj.object as { object: string }).object;
    push(oid, `tag: ${t}`);
  }
  // HEAD -> branch first, then as git orders: the current branch, tags, others
  for (const [k, v] of out)
    out.set(
      k,
      v.sort((a, b) => rank(a) - rank(b)),
    );
  return out;
}
const rank = (n: string) => (n.startsWith("HEAD") ? 0 : n.startsWith("tag: ") ? 1 : 2);

/** Commits in git's default order: newest committer date first, ties in the order they were met. */
async function* walk(repo: Repo, starts: string[], hide: Set<string>): AsyncGenerator<Shown> {
  const seen = new Set<string>(hide);
  const queue: Shown[] = [];
  const insert = (s: Shown) => {
    let i = 0;
    while (i < queue.length && queue[i]!.c.committer.timestamp >= s.c.committer.timestamp) i++;
    queue.splice(i, 0, s);
  };
  const read = async (oid: string) => ({ oid, c: (await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).commit });
  for (const s of starts) {
    if (seen.has(s)) continue;
    seen.add(s);
    insert(await read(s));
  }
  let n = 0;
  while (queue.length && n++ < GIT_MAX_LOG_COMMITS) {
    const s = queue.shift()!;
    yield s;
    for (const p of s.c.parent) {
      if (seen.has(p)) continue;
      seen.add(p);
      insert(await read(p));
    }
  }
}

async function ancestors(repo: Repo, oid: string): Promise<Set<string>> {
  const out = new Set<string>();
  for await (const s of walk(repo, [oid], new Set())) out.add(s.oid);
  return out;
}

const LOG_SPEC = {
  flags: {
    ...DIFF_FLAGS,
    "--oneline": "oneline",
    "--all": "all",
    "--reverse": "reverse",
    "--decorate": "decorate",
    "--no-decorate": "nodecorate",
    "--first-parent": "firstparent",
    "--no-merges": "nomerges",
    "--merges": "merges",
    "--graph": "graph",
    "--follow": "follow",
    "-i": "icase",
    "--regexp-ignore-case": "icase",
  },
  values: {
    "-n": "count",
    "--max-count": "count",
    "--author": "author",
    "--grep": "grep",
    "--since": "since",
    "--after": "since",
    "--until": "until",
    "--before": "until",
    "--skip": "skip",
    "-U": "unified",
    "--unified": "unified",
    "--date": "date",
  },
  optional: { "--pretty": "pretty", "--format": "format", "--color": "color" },
};

export async function log(repo: Repo, argv: string[], show = false): Promise<number> {
  const p = parseArgs(show ? "show" : "log", argv, LOG_SPEC);
  if (p.opts.has("graph")) unsupported("git log --graph is not supported here; use --oneline, or --format='%h %p %s' to see parents");
  if (p.opts.has("follow")) unsupported("git log --follow is not supported here; use 'git log -- <path>' on each name");
  if (p.opts.has("since") || p.opts.has("until")) unsupported("git log --since/--until are not supported here; use -n or a revision range");
  if (p.opts.has("date")) unsupported("git log --date is not supported here; use --format with %ad, %ai, %aI, %ar or %at");
  const f = diffFormat(p, show);
  const specs: string[] = [];
  const starts: string[] = [];
  const hide = new Set<string>();
  let paths = [...p.paths];
  const revArgs: string[] = [];
  for (const [i, a] of p.args.entries()) {
    const base = a.replace(/^\^/, "").split("..")[0] || "HEAD";
    if (!p.dashdash && !(await isRev(repo, base)) && !a.includes(":")) {
      paths = [...p.args.slice(i), ...paths];
      break;
    }
    revArgs.push(a);
  }
  specs.push(...paths.map((w) => repoPath(repo, w)));
  if (show && revArgs.length === 1 && revArgs[0]!.includes(":")) return showBlob(repo, revArgs[0]!);
  for (const a of revArgs) {
    if (a.includes("...")) unsupported("A...B ranges are not supported here; use A..B");
    if (a.includes("..")) {
      const [x, y] = a.split("..");
      for (const o of await ancestors(repo, await resolveRev(repo, x || "HEAD"))) hide.add(o);
      starts.push(await resolveRev(repo, y || "HEAD"));
    } else if (a.startsWith("^")) for (const o of await ancestors(repo, await resolveRev(repo, a.slice(1)))) hide.add(o);
    else starts.push(await resolveRev(repo, a));
  }
  if (p.opts.has("all")) {
    for (const b of await git.listBranches({ fs: repo.fs, gitdir: repo.gitdir })) starts.push(await resolveRev(repo, b));
  }
  if (!starts.length) {
    const head = await headOid(repo);
    if (!head) {
      const branch = (await git.currentBranch({ fs: repo.fs, gitdir: repo.gitdir, fullname: false })) ?? "HEAD";
      return fatal(`your current branch '${branch}' does not have any commits yet`);
    }
    starts.push(head);
  }
  const fmtName = (p.opts.get("format") ?? p.opts.get("pretty")) as string | true | undefined;
  const format = p.opts.has("oneline")
    ? "oneline-abbrev"
    : fmtName === undefined || fmtName === true
      ? "medium"
      : p.opts.has("format")
        ? /^(format|tformat):/.test(fmtName) || !/^(oneline|short|medium|full|fuller)$/.test(fmtName)
          ? fmtName.includes(":") && /^(format|tformat):/.test(fmtName)
            ? fmtName
            : `tformat:${fmtName}`
          : fmtName
        : fmtName;
  const refs = await decorations(repo);
  const decorate = p.opts.has("decorate") && !p.opts.has("nodecorate");
  const limit = p.opts.has("count") ? Number(p.opts.get("count")) : show ? starts.length : Infinity;
  let skip = Number(p.opts.get("skip") ?? 0);
  const author = p.opts.get("author") as string | undefined;
  const grep = p.opts.get("grep") as string | undefined;
  const picked: Shown[] = [];
  const source = show ? starts.map((oid) => ({ oid })) : null;
  const iter = source
    ? (async function* () {
        for (const s of source) yield { oid: s.oid, c: (await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid: s.oid, cache: repo.cache })).commit };
      })()
    : walk(repo, starts, hide);
  const firstParent = p.opts.has("firstparent");
  const onPath = new Set<string>();
  for await (const s of iter) {
    if (picked.length >= limit) break;
    if (firstParent && !show) {
      if (onPath.size && !onPath.has(s.oid)) continue;
      onPath.add(s.c.parent[0] ?? "");
    }
    if (p.opts.has("nomerges") && s.c.parent.length > 1) continue;
    if (p.opts.has("merges") && s.c.parent.length < 2) continue;
    if (author && !new RegExp(author, p.opts.has("icase") ? "i" : "").test(`${s.c.author.name} <${s.c.author.email}>`)) continue;
    if (grep && !new RegExp(grep, p.opts.has("icase") ? "i" : "").test(s.c.message)) continue;
    if (specs.length && !show) {
      const parentTree = s.c.parent[0] ? await treeOf(repo, s.c.parent[0]) : undefined;
      const ch = await changesBetween(repo, { kind: "tree", oid: parentTree }, { kind: "tree", oid: s.c.tree }, specs, { renames: false });
      if (!ch.length) continue;
    }
    if (skip > 0) {
      skip--;
      continue;
    }
    picked.push(s);
  }
  if (p.opts.has("reverse")) picked.reverse();
  let out = "";
  for (const [i, s] of picked.entries()) {
    const r = pretty(s, format, refs, decorate);
    const withDiff = f.patch || f.stat || f.shortstat || f.numstat || f.nameOnly || f.nameStatus;
    let body = "";
    if (withDiff && s.c.parent.length < 2) {
      const parentTree = s.c.parent[0] ? await treeOf(repo, s.c.parent[0]) : undefined;
      const changes = await changesBetween(repo, { kind: "tree", oid: parentTree }, { kind: "tree", oid: s.c.tree }, specs, { renames: f.renames });
      body = renderChanges(repo, changes, f);
    }
    // Separators as git prints them: a blank line between commits in the multi-line formats
    // (format: strings separate with nothing, tformat: ends each with a newline), and a blank
    // line between a commit's header and its diff except in the one-line formats.
    if (i > 0 && !r.oneline && !r.user) out += "\n";
    if (i > 0 && r.separator) out += r.separator;
    out += r.text;
    if (body) out += r.oneline ? body : `\n${body}`;
    if (out.length > 1 << 16) {
      repo.out(out);
      out = "";
      await repo.flush();
    }
  }
  repo.out(out);
  return 0;
}

/** `git show REV:path`: the file's bytes. */
async function showBlob(repo: Repo, arg: string): Promise<number> {
  const colon = arg.indexOf(":");
  const rev = arg.slice(0, colon);
  let path = arg.slice(colon + 1);
  if (path.startsWith("./")) path = repoPath(repo, path);
  const oid = await resolveRev(repo, rev || "HEAD");
  checkContent(repo, path);
  try {
    const { blob } = await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, filepath: path, cache: repo.cache });
    await repo.io.stdout.write(blob);
    return 0;
  } catch {
    return fatal(`path '${path}' does not exist in '${rev || "HEAD"}'`);
  }
}
