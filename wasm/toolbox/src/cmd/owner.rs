//! chown/chgrp OWNER[:GROUP] FILE... — the workspace stores no owners, and
//! the sandbox has two users (root and the session's own), so these check
//! their operands, accept those two and refuse anyone else by name.

use crate::args::{flag, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::fsx;
use super::sysinfo::{UID, USER};
use std::io::Write;

const SPECS: &[Spec] = &[
    flag('R', "recursive", "R"),
    flag('c', "changes", "c"),
    flag('f', "silent", "f"),
    flag('\0', "quiet", "f"),
    flag('v', "verbose", "v"),
    flag('h', "no-dereference", "h"),
    flag('\0', "dereference", "deref"),
    flag('H', "", "H"),
    flag('L', "", "L"),
    flag('P', "", "P"),
    val('\0', "reference", "reference"),
    val('\0', "from", "from"),
    flag('\0', "preserve-root", "preserve-root"),
    flag('\0', "no-preserve-root", "no-preserve-root"),
];

fn help(name: &str) -> String {
    let what = if name == "chown" { "OWNER[:[GROUP]]" } else { "GROUP" };
    format!("Usage: {n} [OPTION]... {w} FILE...\n  or:  {n} [OPTION]... --reference=RFILE FILE...\nChange the {k} of each FILE. This sandbox has the users root (0) and {u} ({id});\nfiles have no stored owner, so naming either is accepted and changes nothing.\n\n  -c, --changes          like verbose but report only when a change is made\n  -f, --silent, --quiet  suppress most error messages\n  -v, --verbose          output a diagnostic for every file processed\n  -h, --no-dereference   accepted (there are no symbolic links here)\n      --reference=RFILE  use RFILE's owner and group\n  -R, --recursive        operate on files and directories recursively\n", n = name, w = what, k = if name == "chown" { "owner and/or group" } else { "group" }, u = USER, id = UID)
}

/// True for the names and ids this sandbox knows.
fn known(who: &str) -> bool {
    who.is_empty() || who == "root" || who == "0" || who == USER || who == UID.to_string()
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let chown = ctx.name == "chown";
    let h = help(ctx.name);
    let p = getopt!(ctx, args, SPECS, &h, 1);
    let mut ops = p.operands.clone();
    let spec = match p.last("reference") {
        Some(r) => {
            if let Err(e) = fsx::metadata(r) {
                ctx.diag.error(format!("failed to get attributes of {}: {}", q(r), reason(&e)));
                return Ok(1);
            }
            USER.to_string()
        }
        None => {
            if ops.is_empty() {
                super::missing_operand(ctx, None);
                return Ok(1);
            }
            ops.remove(0)
        }
    };
    if ops.is_empty() {
        ctx.diag.usage(format!("missing operand after {}", q(&spec)));
        return Ok(1);
    }
    let (user, group) = if chown {
        match spec.find(|c| c == ':' || c == '.') {
            Some(i) => (&spec[..i], &spec[i + 1..]),
            None => (&spec[..], ""),
        }
    } else {
        ("", &spec[..])
    };
    for (who, kind) in [(user, "user"), (group, "group")] {
        if !known(who) {
            ctx.diag.error(format!("invalid {}: {} (this sandbox has only root and {}; file owners are not stored)", kind, q(&spec), USER));
            return Ok(1);
        }
    }
    let quiet = p.has("f");
    for f in &ops {
        match fsx::symlink_metadata(f) {
            Ok(_) => {
                if p.has("v") {
                    writeln!(ctx.out, "ownership of {} retained as {}", q(f), if spec.is_empty() { USER } else { &spec })?;
                }
            }
            Err(e) => {
                if quiet {
                    ctx.diag.failed = true;
                } else {
                    let verb = if chown { "changing ownership of" } else { "changing group of" };
                    ctx.diag.error(format!("cannot access {}: {} ({} it was not attempted)", q(f), reason(&e), verb));
                }
            }
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::{run, tmpdir, write};

    #[test]
    fn accepts_known_users_only() {
        let d = tmpdir();
        let f = format!("{}/f", d);
        write(&f, "x");
        let cases: &[(&str, &[&str], i32, &str)] = &[
            ("chown", &["root", &f], 0, ""),
            ("chown", &["agent:agent", &f], 0, ""),
            ("chown", &["0:0", &f], 0, ""),
            ("chown", &["-R", "1000", &d], 0, ""),
            ("chown", &[":root", &f], 0, ""),
            ("chgrp", &["agent", &f], 0, ""),
            ("chown", &["bob", &f], 1, "chown: invalid user: 'bob' (this sandbox has only root and agent; file owners are not stored)\n"),
            ("chown", &["root:staff", &f], 1, "chown: invalid group: 'root:staff' (this sandbox has only root and agent; file owners are not stored)\n"),
            ("chgrp", &["wheel", &f], 1, "chgrp: invalid group: 'wheel' (this sandbox has only root and agent; file owners are not stored)\n"),
            ("chown", &["root"], 1, "chown: missing operand after 'root'\nTry 'chown --help' for more information.\n"),
            ("chown", &["root", "/nonexistent-x"], 1, "chown: cannot access '/nonexistent-x': No such file or directory (changing ownership of it was not attempted)\n"),
            ("chown", &["-f", "root", "/nonexistent-x"], 1, ""),
        ];
        for (cmd, args, code, err) in cases {
            let (c, _, e) = run(cmd, args, "");
            assert_eq!((e.as_str(), c), (*err, *code), "{} {:?}", cmd, args);
        }
    }
}
