// Debian's Dovecot IMAP server for the email_search tests (test/mail/dovecot.global.mjs):
// installed where missing, then run in the foreground with a private configuration in a
// temporary directory, never as a system service.
import { existsSync, readFileSync, utimesSync, mkdirSync, writeFileSync, chmodSync, chownSync, readdirSync, statSync } from "node:fs";
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { join } from "node:path";
import { userInfo } from "node:os";
import { aptInstall } from "./lib/debian.mjs";

export const DOVECOT = "/usr/sbin/dovecot";

/** Installs dovecot-imapd when the server binary is missing. */
export function ensureDovecot() {
  if (!existsSync(DOVECOT) || !existsSync("/usr/lib/dovecot/imap")) aptInstall("dovecot", ["dovecot-imapd"]);
}

/**
 * The user the server's processes run as: the current user, except that Dovecot refuses to
 * give mail to root, so as root the package's own unprivileged users serve it.
 */
function accounts() {
  const me = userInfo();
  if (me.uid !== 0) return { login: me.username, internal: me.username, uid: me.uid, gid: me.gid };
  return { login: "dovenull", internal: "dovecot", uid: uidOf("dovecot"), gid: gidOf("dovecot") };
}

function uidOf(name) {
  return Number(/** @type {string} */ (lookup("/etc/passwd", name))[2]);
}
function gidOf(name) {
  return Number(/** @type {string} */ (lookup("/etc/passwd", name))[3]);
}
function lookup(file, name) {
  const line = readFileLines(file).find((l) => l.split(":")[0] === name);
  if (!line) throw new Error(`no user '${name}' in ${file}: reinstall dovecot-core`);
  return line.split(":");
}
function readFileLines(file) {
  return readFileSync(file, "utf8").split("\n");
}

/**
 * Writes the configuration, the password file and the maildirs, starts `dovecot -F` and waits
 * for its greeting. `users` maps a user to {password, messages: [{name, raw, folder?}]}.
 */
export async function startDovecot({ dir, port, users }) {
  ensureDovecot();
  const acc = accounts();
  for (const sub of ["run", "state", "mail"]) mkdirSync(join(dir, sub), { recursive: true });
  const passwd = Object.entries(users)
    .map(([user, u]) => `${user}:{PLAIN}${u.password}:${acc.uid}:${acc.gid}::${join(dir, "mail", user)}::`)
    .join("\n");
  writeFileSync(join(dir, "passwd"), passwd + "\n", { mode: 0o600 });
  chownTree(join(dir, "passwd"), acc.uid, acc.gid);
  let n = 0;
  for (const [user, u] of Object.entries(users)) {
    for (const m of u.messages) {
      // Maildir++: INBOX is the root, other folders are ".Name".
      const box = join(dir, "mail", user, m.folder && m.folder !== "INBOX" ? `.${m.folder}` : "");
      for (const s of ["cur", "new", "tmp"]) mkdirSync(join(box, s), { recursive: true });
      n += 1;
      const file = join(box, "cur", `${1700000000 + n}.M${n}P1.toolshed:2,S`);
      writeFileSync(file, m.raw.replace(/\r?\n/g, "\r\n"));
      // A maildir message's internal date (what SEARCH SINCE compares) is the file's mtime.
      const date = /^Date:\s*(.+)$/im.exec(m.raw);
      if (date) utimesSync(file, new Date(date[1]), new Date(date[1]));
    }
  }
  writeFileSync(
    join(dir, "dovecot.conf"),
    [
      `base_dir = ${join(dir, "run")}`,
      `state_dir = ${join(dir, "state")}`,
      `log_path = ${join(dir, "dovecot.log")}`,
      "protocols = imap",
      "listen = 127.0.0.1",
      "ssl = no",
      "disable_plaintext_auth = no",
      "auth_mechanisms = plain login",
      `default_login_user = ${acc.login}`,
      `default_internal_user = ${acc.internal}`,
      `default_internal_group = ${acc.internal}`,
      `first_valid_uid = ${acc.uid}`,
      `mail_location = maildir:~`,
      `passdb {\n  driver = passwd-file\n  args = ${join(dir, "passwd")}\n}`,
      `userdb {\n  driver = passwd-file\n  args = ${join(dir, "passwd")}\n}`,
      `service imap-login {\n  inet_listener imap {\n    address = 127.0.0.1\n    port = ${port}\n  }\n  inet_listener imaps {\n    port = 0\n  }\n}`,
      `service anvil {\n  chroot =\n}`,
      `service imap-login {\n  chroot =\n}`,
      "",
    ].join("\n"),
  );
  chownTree(join(dir, "mail"), acc.uid, acc.gid);
  chmodSync(dir, 0o755);
  const child = spawn(DOVECOT, ["-F", "-c", join(dir, "dovecot.conf")], { stdio: ["ignore", "inherit", "inherit"] });
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  await waitForGreeting(port, exited, dir);
  return {
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
    },
  };
}

function chownTree(path, uid, gid) {
  if (process.getuid?.() !== 0) return;
  chownSync(path, uid, gid);
  if (statSync(path).isDirectory()) for (const e of readdirSync(path)) chownTree(join(path, e), uid, gid);
}

async function waitForGreeting(port, exited, dir) {
  let done = false;
  exited.then(() => (done = true));
  for (let i = 0; i < 100; i++) {
    if (done) throw new Error(`dovecot exited before listening; see ${join(dir, "dovecot.log")}`);
    const ok = await new Promise((resolve) => {
      const s = connect(port, "127.0.0.1");
      s.once("data", (d) => {
        s.destroy();
        resolve(String(d).startsWith("* OK"));
      });
      s.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`dovecot did not greet on 127.0.0.1:${port} within 10 s`);
}
