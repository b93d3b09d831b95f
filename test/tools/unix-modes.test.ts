import { describe, expect, it } from "vitest";
import { applyMode, modeString } from "../../src/tools/shell/host-commands/mode";
import { api, newSession, tool } from "../helpers";

// [spec, current, isDir, umask, expected] — each checked with GNU coreutils 9.1 chmod on Debian.
const MODES: [string, number, boolean, number, number | null][] = [
  ["755", 0o644, false, 0o022, 0o755],
  ["0600", 0o644, false, 0o022, 0o600],
  ["4755", 0o644, false, 0o022, 0o4755],
  ["+x", 0o644, false, 0o022, 0o755],
  ["+x", 0o644, false, 0o077, 0o744],
  ["u+x", 0o644, false, 0o077, 0o744],
  ["a+x", 0o644, false, 0o077, 0o755],
  ["go-r", 0o644, false, 0o022, 0o600],
  ["u=rwx,g=rx,o=", 0o644, false, 0o022, 0o750],
  ["a=r", 0o755, false, 0o022, 0o444],
  ["=r", 0o755, false, 0o022, 0o444],
  ["g=u", 0o640, false, 0o022, 0o660],
  ["o+X", 0o644, false, 0o022, 0o644],
  ["o+X", 0o744, false, 0o022, 0o745],
  ["a+X", 0o700, true, 0o022, 0o711],
  ["u+s,g+s", 0o755, false, 0o022, 0o6755],
  ["+t", 0o755, true, 0o022, 0o1755],
  ["u-w+x", 0o644, false, 0o022, 0o544],
  ["-w", 0o666, false, 0o022, 0o466],
  ["z+x", 0o644, false, 0o022, null],
  ["u+q", 0o644, false, 0o022, null],
  ["888", 0o644, false, 0o022, null],
];

describe("chmod's mode language", () => {
  it.each(MODES)("%s on %o (dir %s, umask %o)", (spec, current, isDir, umask, expected) => {
    expect(applyMode(spec, current, isDir, umask)).toBe(expected);
  });

  it("spells modes as ls does", () => {
    expect([0o755, 0o644, 0o4755, 0o2750, 0o1777, 0o4644].map(modeString)).toEqual(["rwxr-xr-x", "rw-r--r--", "rwsr-xr-x", "rwxr-s---", "rwxrwxrwt", "rwSr--r--"]);
  });
});

describe("file modes through the bash tool", () => {
  it("chmod, umask and test agree, and modes survive overwrites through every door", async () => {
    const id = await newSession();
    const run = async (command: string) => tool(id, "bash", { command });
    let r = await run("touch f; chmod -v 751 f; chmod -c 751 f; chmod -c u-w f; [ -w f ] || echo notw; [ -x f ] && echo x; [ -r f ] && echo r");
    expect(r.stdout).toBe(
      "mode of 'f' changed from 0644 (-rw-r--r--) to 0751 (-rwxr-x--x)\nmode of 'f' changed from 0751 (-rwxr-x--x) to 0551 (-r-xr-x--x)\nnotw\nx\nr\n",
    );
    r = await run("chmod 000 f; [ -r f ] || echo nor; chmod --reference=/etc/hostname f; [ -r f ] && echo r");
    expect(r.stdout).toBe("nor\nr\n");
    r = await run("mkdir -p d/e && touch d/e/g && chmod -R go-rwx d && [ -x d/e ] && chmod -v 700 d/e/g");
    expect(r.stdout).toBe("mode of 'd/e/g' changed from 0600 (-rw-------) to 0700 (-rwx------)\n");
    // umask: redirections and programs create with it
    r = await run("umask 077; echo a > u1; touch u2; mkdir u3; chmod -v u+r u1 u2 u3");
    expect(r.stdout).toBe("mode of 'u1' retained as 0600 (-rw-------)\nmode of 'u2' retained as 0600 (-rw-------)\nmode of 'u3' retained as 0700 (drwx------)\n");
    // kept when the content is replaced: redirect, write_file, the files endpoint
    await run("printf '#!/bin/sh\\necho one\\n' > s.sh; chmod +x s.sh");
    await tool(id, "write_file", { path: "s.sh", content: "#!/bin/sh\necho two\n" });
    expect((await run("./s.sh")).stdout).toBe("two\n");
    expect((await api("PUT", `/v1/sessions/${id}/files/s.sh`, { raw: "#!/bin/sh\necho three\n" })).status).toBe(201);
    expect((await run("./s.sh; echo 'echo four' > s.sh; ./s.sh")).stdout).toBe("three\nfour\n");
    // shown by ls -l, stat and find; kept by cp -p and tar
    r = await run(
      "mkdir -p m && cd m && touch a b c && mkdir sub && chmod 750 a && chmod u+s,g+w b && chmod 1777 sub && ls -l | cut -d' ' -f1 && stat -c '%a %A %n' a b c sub",
    );
    expect(r.stdout).toBe("total\n-rwxr-x---\n-rwSrw-r--\n-rw-r--r--\ndrwxrwxrwt\n750 -rwxr-x--- a\n4664 -rwSrw-r-- b\n644 -rw-r--r-- c\n1777 drwxrwxrwt sub\n");
    r = await run("cd m && find . -perm 750; find . -perm -u+x | sort; find . -perm /o+w; find . -name c -printf '%m %M\\n'");
    expect(r.stdout).toBe("./a\n.\n./a\n./sub\n./sub\n644 -rw-r--r--\n");
    r = await run(
      "cd m && cp -p a a2 && cp a a3 && stat -c '%a' a2 a3 && tar cf /tmp/m.tar a b && mkdir x && tar xpf /tmp/m.tar -C x && stat -c '%a %n' x/a x/b && tar tvf /tmp/m.tar | cut -c1-10",
    );
    // Plain cp gives the copy its source's bits under the umask, as GNU cp does; tar keeps every
    // bit with -p (without it the umask applies and set-id bits go, as for GNU tar run by a user).
    expect(r.stdout).toBe("750\n750\n750 x/a\n4664 x/b\n-rwxr-x---\n-rwSrw-r--\n");
    // errors
    r = await run("chmod 9 f");
    expect([r.exit_code, r.stderr]).toEqual([1, "chmod: invalid mode: ‘9’\nTry 'chmod --help' for more information.\n"]);
    r = await run("chmod +x nosuch");
    expect([r.exit_code, r.stderr]).toEqual([1, "chmod: cannot access 'nosuch': No such file or directory\n"]);
    r = await run("chmod 777 /etc/passwd");
    expect(r.exit_code).toBe(1);
    expect(r.denied?.rule).toBe("path-read-only");
    r = await run("chmod");
    expect([r.exit_code, r.stderr]).toEqual([1, "chmod: missing operand\nTry 'chmod --help' for more information.\n"]);
  });
});
