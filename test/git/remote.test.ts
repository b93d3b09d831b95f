import { describe, expect, inject, it } from "vitest";
import { newSession, tool } from "../helpers";

// The smart-HTTP server of git-server.global.mjs: Debian's `git http-backend` on 127.0.0.1.
const { origin, otherOrigin } = inject("gitServer");
const bash = (id: string, command: string) => tool(id, "bash", { command });
const WHO =
  'export GIT_AUTHOR_NAME="Ann Agent" GIT_AUTHOR_EMAIL=ann@example.com GIT_COMMITTER_NAME="Ann Agent" GIT_COMMITTER_EMAIL=ann@example.com GIT_AUTHOR_DATE="@1700000600 +0000" GIT_COMMITTER_DATE="@1700000600 +0000"';

describe("git over smart HTTP, through the URL policy", () => {
  it("clone → commit → push → fresh clone sees the commit; credentials stay with the operator", async () => {
    const id = await newSession();
    const repo = `${origin}/seed.git`;
    const r = await bash(
      id,
      `${WHO}\ngit clone -q ${repo} work && cd work && git log --format='%s %an' && cat README.md src/main.py && git status && echo new > new.txt && git add new.txt && git commit -q -m 'add new' && git push && git rev-parse HEAD > ../pushed && git status -sb`,
    );
    expect(r.exit_code, r.stderr).toBe(0);
    expect(r.stdout).toContain("seed Seed\nhello\nprint(1)\n");
    expect(r.stdout).toContain("On branch master\nYour branch is up to date with 'origin/master'.\n\nnothing to commit, working tree clean\n");
    expect(r.stdout).toMatch(/## master\.\.\.origin\/master\n$/);
    expect(r.stderr).toMatch(/To http:\/\/127\.0\.0\.1:\d+\/seed\.git\n {3}[0-9a-f]{7}\.\.[0-9a-f]{7} {2}master -> master\n/);
    const again = await bash(id, `git clone -q ${repo} fresh && cd fresh && git log --oneline | wc -l && cat new.txt && git rev-parse HEAD && cat ../pushed`);
    expect(again.exit_code, again.stderr).toBe(0);
    const [count, text, head, pushed] = again.stdout.trim().split("\n");
    expect([count?.trim(), text]).toEqual(["2", "new"]);
    expect(head).toBe(pushed);
    // The operator's credential was used (the server refuses pushes without it) but is nowhere the agent can read.
    const look = await bash(id, "cat work/.git/config fresh/.git/config; env; cat work/.git/FETCH_HEAD 2>/dev/null; true");
    expect(look.stdout).not.toContain("s3cret");
    expect(look.stdout).not.toContain("TOOLSHED_GIT_CREDENTIALS");
    expect(look.stdout).toContain(`url = ${repo}`);
  });

  it("fetch and pull fast-forward another clone; a redirect inside the allowed origin is followed", async () => {
    const id = await newSession();
    const r = await bash(
      id,
      `${WHO}\ngit clone -q ${origin}/moved/seed.git a && git clone -q ${origin}/seed.git b && cd a && echo more >> README.md && git commit -q -am more && git push -q origin master && cd ../b && git pull && cat README.md && git fetch && git status -sb`,
    );
    expect(r.exit_code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Updating [0-9a-f]{7}\.\.[0-9a-f]{7}\nFast-forward\n README\.md \| 1 \+\n 1 file changed, 1 insertion\(\+\)\n/);
    expect(r.stdout).toContain("hello\nmore\n");
  });

  it("push to a new branch with -u, then list remote branches", async () => {
    const id = await newSession();
    const r = await bash(
      id,
      `${WHO}\ngit clone -q ${origin}/seed.git c && cd c && git switch -q -c topic-$RANDOM && echo t > t && git add t && git commit -q -m t && git push -u origin HEAD 2>&1 | head -0; git push -u origin $(git branch --show-current) && git branch -r | grep -c topic && git status -sb | head -1`,
    );
    expect(r.exit_code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\* \[new branch\] +topic-\d+ -> topic-\d+/);
    expect(r.stdout).toMatch(/1\n## topic-\d+\.\.\.origin\/topic-\d+\n$/);
  });

  it("cloning an empty repository warns, as git does", async () => {
    const id = await newSession();
    const r = await bash(id, `git clone ${origin}/empty.git e && ls -a e`);
    expect(r.exit_code, r.stderr).toBe(0);
    expect(r.stderr).toContain("warning: You appear to have cloned an empty repository.");
  });

  it("refuses the metadata address, loopback outside the allowed origins, and redirects to them", async () => {
    const id = await newSession();
    const cases: [string, RegExp][] = [
      ["git clone http://169.254.169.254/latest/repo.git m1", /denied/],
      [`git clone ${origin}/to-metadata/seed.git m2`, /denied/],
      [`git clone ${otherOrigin}/seed.git m3`, /denied/],
      [`git init -q r && cd r && git remote add evil http://169.254.169.254/x.git && git fetch evil`, /denied/],
      [`git clone -q ${origin}/seed.git s && cd s && git remote set-url origin ${otherOrigin}/seed.git && git pull`, /denied/],
    ];
    for (const [cmd, err] of cases) {
      const r = await bash(id, cmd);
      expect(r.exit_code, `${cmd}: ${r.stderr}`).toBe(126);
      expect(r.stderr, cmd).toMatch(err);
      expect(r.denied?.rule ?? "", cmd).toMatch(/^url\./);
    }
    const ls = await bash(id, "ls");
    expect(ls.stdout).not.toMatch(/m1|m2|m3/);
  });

  it("refuses submodules, other transports and local paths by name", async () => {
    const id = await newSession();
    const cases: [string, RegExp][] = [
      [`git init -q q && cd q && git submodule add ${origin}/seed.git sub`, /submodules are not supported/],
      ["git clone git@github.com:org/repo.git", /only https:\/\/ \(smart HTTP\) remotes work/],
      ["git clone ssh://host/repo.git", /only https:\/\/ \(smart HTTP\) remotes work/],
      ["git clone ../elsewhere", /local paths are not supported/],
      [`git clone --recurse-submodules ${origin}/seed.git`, /submodules are not supported/],
    ];
    for (const [cmd, err] of cases) {
      const r = await bash(id, cmd);
      expect(r.exit_code, `${cmd}: ${r.stderr}`).toBe(129);
      expect(r.stderr, cmd).toMatch(err);
    }
  });
});

describe("git's file access goes through the workspace policy", () => {
  it("a cloned .env stays unreadable: not through cat, nor git show, nor a patch", async () => {
    const id = await newSession();
    const r = await bash(id, `git clone -q ${origin}/secrets.git sec && cd sec && git log --stat --format=%s && git status --porcelain && cat ok.txt`);
    expect(r.exit_code, r.stderr).toBe(0);
    expect(r.stdout).toBe("with env\n\n .env   | 1 +\n ok.txt | 1 +\n 2 files changed, 2 insertions(+)\nok\n");
    for (const cmd of ["cat .env", "git show HEAD:.env", "git log -p", "git show"]) {
      const x = await bash(id, `cd sec && ${cmd}`);
      expect(x.exit_code, cmd).not.toBe(0);
      expect(x.stdout + x.stderr, cmd).not.toContain("leaked");
      expect(x.denied?.rule, cmd).toMatch(/dotenv|sensitive/);
    }
  });

  it("paths outside the workspace are refused; unknown commands and options are named", async () => {
    const id = await newSession();
    const outside = await bash(id, "git clone http://127.0.0.1:1/x.git /etc/x; git -C /etc status; git init /proc/x");
    expect(outside.exit_code).not.toBe(0);
    expect(outside.stderr).not.toMatch(/\/work\/|node_modules|at .*\.ts:/);
    const r = await bash(id, 'git init -q z && cd z && git rebase main; echo "exit $?"; git log --graph; echo "exit $?"; git frobnicate; echo "exit $?"');
    expect(r.stdout).toBe("exit 129\nexit 129\nexit 1\n");
    expect(r.stderr).toContain("rebase is not supported here");
    expect(r.stderr).toContain("git log --graph is not supported here");
    expect(r.stderr).toContain("'frobnicate' is not a git command");
  });

  it("is found like a program", async () => {
    const id = await newSession();
    const r = await bash(id, "type git; command -v git; git --version");
    expect(r.stdout).toMatch(/^git is \/[a-z/]+\/git\n\/[a-z/]+\/git\ngit version /);
  });
});
