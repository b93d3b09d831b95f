import { describe, expect, it } from "vitest";
import { api, newSession, tool } from "../helpers";
import { expectRows, type Row } from "./unix-table";

/**
 * Symbolic links as agents use them (issue 12), through the bash tool. Every row's stdout, stderr
 * and exit status are what bash and coreutils on Debian printed for the same command, run as
 * `nobody` in a temp dir (paths made relative with sed where Debian's would be absolute).
 */
const ROWS: Row[] = [
  {
    cmd: "mkdir r1 && cd r1 && echo hi > f && ln -s f l && cat l && readlink l && [ -L l ] && [ -h l ] && [ -f l ] && echo link-to-file",
    stdout: "hi\nf\nlink-to-file\n",
  },
  {
    cmd: 'mkdir r2 && cd r2 && ln -s nowhere dang; [ -e dang ] || echo dangling; [ -L dang ] && echo is-link; cat dang; echo "exit $?"',
    stdout: "dangling\nis-link\nexit 1\n",
    stderr: /cat: dang: No such file or directory/,
  },
  {
    cmd: 'B=$PWD; mkdir -p r3/real/sub && cd r3 && ln -s real cur && cd cur && pwd | sed "s|$B|.|" && pwd -P | sed "s|$B|.|" && cd sub && pwd | sed "s|$B|.|" && cd .. && cd .. && pwd | sed "s|$B|.|"',
    stdout: "./r3/cur\n./r3/real\n./r3/cur/sub\n./r3\n",
  },
  { cmd: 'B=$PWD; mkdir -p r4/a/b && cd r4 && ln -s a/b lb && cd -P lb && pwd | sed "s|$B|.|" && [ -d ../../lb ] && echo dir-ok', stdout: "./r4/a/b\ndir-ok\n" },
  { cmd: "mkdir r5 && cd r5 && ln -s target out && echo written > out && cat target && ls", stdout: "written\nout\ntarget\n" },
  { cmd: "mkdir r6 && cd r6 && touch x y && ln -s x z && echo * && ls", stdout: "x y z\nx\ny\nz\n" },
  { cmd: 'mkdir r7 && cd r7 && ln -s b a && ln -s a b && cat a; echo "exit $?"', stdout: "exit 1\n", stderr: /cat: a: Too many levels of symbolic links/ },
  {
    cmd: "mkdir r8 && cd r8 && mkdir v1 v2 && ln -sfn v1 current && readlink current && ln -sfn v2 current && readlink current && ls",
    stdout: "v1\nv2\ncurrent\nv1\nv2\n",
  },
  {
    cmd: 'mkdir r9 && cd r9 && touch t && ln -sv t l1 && ln -s t l1; echo "exit $?"; ln -sf t l1 && ln -sbv t l1 && ls',
    stdout: "'l1' -> 't'\nexit 1\n'l1~' ~ 'l1' -> 't'\nl1\nl1~\nt\n",
    stderr: /ln: failed to create symbolic link 'l1': File exists/,
  },
  {
    cmd: "mkdir r10 && cd r10 && mkdir d && touch f && ln -s ../f d/up && ln -s f rel && ls -l d/up rel | awk '{print $1, $NF}' && cat d/up",
    stdout: "lrwxrwxrwx ../f\nlrwxrwxrwx f\n",
  },
  {
    cmd: "mkdir r11 && cd r11 && touch f && ln -s f l && stat -c '%N|%F|%A|%s' l && stat -L -c '%F' l",
    stdout: "'l' -> 'f'|symbolic link|lrwxrwxrwx|1\nregular empty file\n",
  },
  {
    cmd: "mkdir -p r12/d && cd r12 && touch d/f && ln -s d/f l && ln -s d dl && find . -type l | sort && find . -xtype f | sort && find -L . -type f | sort && find . -lname 'd*' | sort",
    stdout: "./dl\n./l\n./d/f\n./l\n./d/f\n./dl/f\n./l\n./dl\n./l\n",
  },
  { cmd: "mkdir -p r13/d && cd r13 && echo c > d/f && ln -s f d/l && cp -a d e && [ -L e/l ] && readlink e/l && cp d/l g && [ -L g ] || cat g", stdout: "f\nc\n" },
  { cmd: "mkdir -p r14/d && cd r14 && echo keep > d/f && ln -s d dl && rm dl && ls && cat d/f && ln -s d dl2 && rm -rf dl2 && cat d/f", stdout: "d\nkeep\nkeep\n" },
  {
    cmd: "mkdir -p r15/d && cd r15 && echo t > d/f && ln -s f d/l && tar cf a.tar d && tar tvf a.tar | awk '{print $1, $6, $7, $8}' && mkdir x && tar xf a.tar -C x && readlink x/d/l && cat x/d/l",
    stdout: "drwxr-xr-x d/  \n-rw-r--r-- d/f  \nlrwxrwxrwx d/l -> f\nf\nt\n",
  },
  {
    cmd: 'B=$PWD; mkdir -p r16/a/b && cd r16 && touch a/b/f && ln -s a/b lnk && realpath lnk | sed "s|$B|.|" && realpath -s lnk/../a | sed "s|$PWD|.|" && readlink -f lnk/f | sed "s|$PWD|.|" && readlink -e nope; echo "exit $?"; readlink -m nope/x | sed "s|$PWD|.|"',
    stdout: "./r16/a/b\n./a\n./a/b/f\nexit 1\n./nope/x\n",
  },
  { cmd: "mkdir -p r17/a && cd r17 && touch a/f && ln -sr a/f a/../l && readlink l && ln -s a/f t && realpath --relative-to=a t", stdout: "a/f\nf\n" },
  { cmd: 'mkdir r18 && cd r18 && ln -s self self && cat self; echo "exit $?"', stdout: "exit 1\n", stderr: /cat: self: Too many levels of symbolic links/ },
  { cmd: "mkdir r19 && cd r19 && touch f && chmod 600 f && ln -s f l && chmod 640 l && stat -c '%a %A' f l", stdout: "640 -rw-r-----\n777 lrwxrwxrwx\n" },
  { cmd: "mkdir -p r20/d && cd r20 && ln -s d l && mv l m && readlink m && ls", stdout: "d\nd\nm\n" },
  {
    cmd: "mkdir -p r22/d && cd r22 && ln -s x d/a && ln -s y d/b && ls -l d | awk 'NR>1{print $1, $(NF-2), $(NF-1), $NF}'",
    stdout: "lrwxrwxrwx a -> x\nlrwxrwxrwx b -> y\n",
  },
  { cmd: "mkdir -p r23/d && cd r23 && touch d/f && ln -s d dl && ls dl && ls -d dl && ls -F | tr '\\n' ' ' && echo", stdout: "f\ndl\nd/ dl@ \n" },
];

describe("symbolic links", () => {
  it("behave as bash and coreutils on Debian for every row", async () => {
    const id = await newSession();
    await expectRows(id, ROWS);
  });

  it("refuses hard links with a message that names ln -s", async () => {
    const id = await newSession();
    const r = await tool(id, "bash", { command: "touch f && ln f h" });
    expect(r.exit_code).toBe(1);
    expect(r.stderr).toBe("ln: hard links are not supported in this sandbox; use ln -s to make a symbolic link instead\n");
  });

  it("keep file tools inside /workspace and apply .env rules to where a link leads", async () => {
    const id = await newSession();
    const made = await tool(id, "bash", {
      command:
        "echo tmp > /tmp/t && ln -s /tmp/t tl && ln -s /etc et && ln -s ../.. up && echo ok > f && ln -s f good && mkdir d conf && ln -s d dl && echo in > d/x && ln -s conf c",
    });
    expect(made.exit_code).toBe(0);
    for (const [name, args, rule] of [
      ["read_file", { path: "tl" }, "symlink-outside-workspace"],
      ["read_file", { path: "et/hostname" }, "symlink-outside-workspace"],
      ["read_file", { path: "up/tmp/t" }, "symlink-outside-workspace"],
      ["write_file", { path: "tl", content: "x" }, "symlink-outside-workspace"],
      ["list_dir", { path: "et" }, "symlink-outside-workspace"],
      ["grep", { pattern: "tmp", path: "tl" }, "symlink-outside-workspace"],
    ] as const) {
      const r = await tool(id, name, args);
      expect(r.success, `${name} ${JSON.stringify(args)}`).toBe(false);
      expect(r.denied?.rule).toBe(rule);
      expect(JSON.stringify(r)).toMatch(/symbolic link .* outside the workspace; file tools only reach \/workspace/);
    }
    expect((await tool(id, "read_file", { path: "good" })).output).toContain("ok");
    expect((await tool(id, "read_file", { path: "dl/x" })).output).toContain("in");
    await tool(id, "write_file", { path: "conf/.env", content: "SECRET=1\n" });
    expect((await tool(id, "read_file", { path: "c/.env" })).denied?.rule).toBe("sensitive-file");
    const viaGrep = await tool(id, "bash", { command: "grep -r SECRET c/" });
    expect(viaGrep.stdout).not.toContain("SECRET");
    expect((await tool(id, "bash", { command: "ln -s .env e; cat e" })).denied?.rule).toBe("dotenv");
    // rm -rf through a link to the workspace is refused as rm -rf ~ is, a glob through a link to /
    // as rm -rf /* is (emptying the workspace through a link runs: test/policy/rm-root.test.ts);
    // the bare link is removed alone
    expect((await tool(id, "bash", { command: "ln -s /workspace w && rm -rf w/" })).denied?.rule).toBe("rm-root");
    expect((await tool(id, "bash", { command: "ln -s / r && rm -rf r/*" })).denied?.rule).toBe("rm-root");
    const bare = await tool(id, "bash", { command: "rm -rf w && [ ! -e w ] && cat good" });
    expect([bare.exit_code, bare.stdout]).toEqual([0, "ok\n"]);
    expect((await api("GET", `/v1/sessions/${id}/files/tl`)).status).not.toBe(200);
  });

  it("never lets one session reach another's files through a link", async () => {
    const a = await newSession();
    const b = await newSession();
    await tool(a, "bash", { command: "echo mine > /tmp/s && echo ws > /workspace/w" });
    const r = await tool(b, "bash", { command: "ln -s /tmp/s l && ln -s /workspace/w m; cat l m" });
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("No such file or directory");
  });
});
